// The pipeline schedule of one training step, simulated from per-stage times: which forward
// (F) and backward (B) block each stage runs when. Pure data for the timeline (timeline.js).
//
// Orders per stage (Narayanan et al. 2021, §2.2; Megatron-LM schedules.py):
//   GPipe        all forwards, then all backwards
//   1F1B         p − s − 1 warm-up forwards on stage s, then one forward and one backward in
//                turn, then the remaining backwards
//   interleaved  v chunks of 1/v of the stage's layers; micro-batches go in groups of p,
//                chunk after chunk; (p − s − 1)·2 + (v − 1)·p warm-up forwards
// Each block starts when its stage is free and its input is ready: a forward needs the same
// chunk's forward on the stage before (chunk c on stage 0 needs chunk c − 1 on the last
// stage), a backward the same chunk's backward on the stage after.

// Per-stage forward and backward time of one micro-batch: the ops of each stage summed
// (an op's total_time_s covers every micro-batch of the step).
export function stageTimes(result) {
  const p = result.pipeline.stages;
  const m = result.pipeline.micro_batches;
  const sum = (ops) => {
    const t = new Array(p).fill(0);
    for (const op of ops) t[op.stage ?? 0] += op.total_time_s / m;
    return t;
  };
  return { forward: sum(result.phases.forward.ops), backward: sum(result.phases.backward.ops) };
}

// [[mb, chunk]] in the order the forwards (or backwards) enter stage 0 (the last stage).
function sequence(m, p, v, backward) {
  const out = [];
  for (let start = 0; start < m; start += p) {
    const size = Math.min(p, m - start);
    for (let c = 0; c < v; c++) {
      for (let i = 0; i < size; i++) out.push([start + i, backward ? v - 1 - c : c]);
    }
  }
  return out;
}

// The order in which stage s runs its blocks: [{pass: 'F' | 'B', mb, chunk}]. `more`:
// warm-up forwards beyond the schedule's (for interleaving with m not a multiple of p,
// whose plain order would wait on itself).
export function stageOrder(schedule, p, v, m, s, more = 0) {
  const F = sequence(m, p, v, false).map(([mb, chunk]) => ({ pass: 'F', mb, chunk }));
  const B = sequence(m, p, v, true).map(([mb, chunk]) => ({ pass: 'B', mb, chunk }));
  if (schedule === 'gpipe') return [...F, ...B];
  const total = m * v;
  const warm = Math.min(total, (v > 1 ? (p - s - 1) * 2 + (v - 1) * p : p - s - 1) + more);
  const out = F.slice(0, warm);
  let f = warm;
  let b = 0;
  while (f < total) out.push(F[f++], B[b++]);
  while (b < total) out.push(B[b++]);
  return out;
}

// -> { stages: [[{pass, mb, chunk, start, end}]], end } or null if the orders deadlock.
// forward[s], backward[s]: one micro-batch on stage s (each chunk takes 1/v of it).
export function simulate({ schedule, stages: p, virtualStages: v, microBatches: m, forward, backward, more = 0 }) {
  const orders = Array.from({ length: p }, (_, s) => stageOrder(schedule, p, v, m, s, more));
  const index = (pass, mb, chunk, s) => (((pass === 'F' ? 0 : 1) * m + mb) * v + chunk) * p + s;
  const done = new Float64Array(2 * m * v * p).fill(-1);
  const need = (pass, mb, chunk, s) => {
    if (pass === 'F') {
      if (s > 0) return index('F', mb, chunk, s - 1);
      return chunk > 0 ? index('F', mb, chunk - 1, p - 1) : -1;
    }
    if (s < p - 1) return index('B', mb, chunk, s + 1);
    return chunk < v - 1 ? index('B', mb, chunk + 1, 0) : index('F', mb, chunk, s);
  };
  const out = orders.map(() => []);
  const next = new Array(p).fill(0);
  const free = new Array(p).fill(0);
  let left = orders.reduce((n, o) => n + o.length, 0);
  for (let progress = true; progress && left > 0;) {
    progress = false;
    for (let s = 0; s < p; s++) {
      while (next[s] < orders[s].length) {
        const { pass, mb, chunk } = orders[s][next[s]];
        const dep = need(pass, mb, chunk, s);
        if (dep >= 0 && done[dep] < 0) break;
        const start = Math.max(free[s], dep >= 0 ? done[dep] : 0);
        const end = start + (pass === 'F' ? forward[s] : backward[s]) / v;
        done[index(pass, mb, chunk, s)] = end;
        out[s].push({ pass, mb, chunk, start, end });
        free[s] = end;
        next[s] += 1;
        left -= 1;
        progress = true;
      }
    }
  }
  if (left > 0) return null;
  return { stages: out, end: Math.max(...free) };
}

// Intervals of [from, to] in which every stage is busy with blocks of hidden micro-batches
// (not `shown(mb)`) only: the steady middle that the timeline can leave out.
export function steadyIntervals(stages, shown) {
  let common = null;
  for (const blocks of stages) {
    const runs = [];
    let run = null;
    for (const b of blocks) {
      if (shown(b.mb)) {
        run = null;
      } else if (run) {
        run[1] = b.end;
      } else {
        run = [b.start, b.end];
        runs.push(run);
      }
    }
    common = common === null ? runs : intersect(common, runs);
  }
  return common ?? [];
}

function intersect(a, b) {
  const out = [];
  for (const [a0, a1] of a) {
    for (const [b0, b1] of b) {
      const lo = Math.max(a0, b0);
      const hi = Math.min(a1, b1);
      if (hi > lo) out.push([lo, hi]);
    }
  }
  return out;
}

// More micro-batches than this are drawn with the steady middle left out: where every stage
// runs only blocks of micro-batches other than the first and last KEEP.
export const DRAW_ALL = 32;
const KEEP = 3; // micro-batches kept at each end
const SIMULATE_AT_MOST = 96;
const BLOCKS_AT_MOST = 400000; // deeper pipelines are not drawn (a few seconds of work)

// The timeline of a training result: the simulated step, with long steady middles cut.
// -> { stages, end, cuts: [{from, to}], relabel(mb) (the micro-batch a simulated one
//    stands for), keep, times, schedule, v, m, p }; null when there are too many blocks.
export function timelineOf(result) {
  const pipe = result.pipeline;
  const p = pipe.stages;
  const v = Math.max(1, pipe.virtual_stages ?? 1);
  const m = pipe.micro_batches;
  const times = stageTimes(result);
  const pace = Math.max(...times.forward.map((f, s) => f + times.backward[s]));
  // Long steps repeat the same steady pattern: simulate fewer micro-batches (a multiple of
  // p, enough for every stage to reach the steady middle) and add the rest at the pace of
  // the slowest stage. If no middle can be cut after all, simulate them all.
  const fewer = Math.min(m, Math.ceil(Math.max(48, 6 * p) / p) * p);
  for (const simulated of m <= SIMULATE_AT_MOST ? [m] : [fewer, m]) {
    if (2 * p * v * simulated > BLOCKS_AT_MOST) return null;
    // With all forwards first no order waits on itself, so this ends.
    let sim = null;
    for (let more = 0; !sim; more += p) {
      sim = simulate({ schedule: pipe.schedule, stages: p, virtualStages: v, microBatches: simulated, more, ...times });
    }
    const shown = (mb) => mb < KEEP || mb >= simulated - KEEP;
    const cuts = m > DRAW_ALL
      ? steadyIntervals(sim.stages, shown).filter(([a, b]) => b - a > (2 * pace) / v)
        .map(([from, to]) => ({ from, to }))
      : [];
    if (simulated < m && cuts.length === 0) continue;
    const relabel = (mb) => (mb >= simulated - KEEP ? mb + (m - simulated) : mb);
    return {
      stages: sim.stages, end: sim.end + (m - simulated) * pace, cuts, relabel, keep: KEEP, times,
      schedule: pipe.schedule, v, m, p,
    };
  }
  return null;
}
