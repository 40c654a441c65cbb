// The layout follows the chip count (issue 23, friction 10): a new user who goes from 8 chips
// to 2 with TP 8 used to get "TP × PP exceeds the chips", and one who went from 8 to 1,024 in
// training kept DP 1 and "1,016 chips idle". When the count changes:
//   * TP follows where the old layout stops fitting (TP × PP above the new count) or where it
//     filled the old count (TP × PP × DP = the chips, every chip in use): the largest TP that
//     divides the chips each pipeline stage has, at most one node's chips (the innermost
//     network level: TP's all-reduces run on every layer and stay on the fastest links), and
//     that the engine accepts for the model (heads, KV heads, Mamba channels: its own check,
//     so the rule is not written twice) — one that fits in memory first;
//   * a DP the user typed that filled the old count becomes the engine's choice again (as
//     many replicas as fill the chips).
// Anything else (a layout that leaves chips over on purpose) stays as it was.
import { networkOf } from './network.js';

// The divisors of n from the largest down, none above cap.
export function divisorsDescending(n, cap = n) {
  const out = [];
  for (let d = Math.min(n, cap); d >= 1; d -= 1) if (n % d === 0) out.push(d);
  return out;
}

// next: the state with its new machine.count; previousCount: the count before the edit;
// check(state) -> {ok, fits} (the engine's). Returns the state to use (next, or a copy).
export function followChips(next, previousCount, { presets, check }) {
  const count = next.machine.count;
  if (!Number.isInteger(count) || count < 1 || count === previousCount) return next;
  const { tp, pp, dp } = next.parallelism;
  if (!Number.isInteger(tp) || !Number.isInteger(pp) || tp < 1 || pp < 1) return next;
  const filled = tp * pp * (dp ?? 1) === previousCount;
  const over = tp * pp > count;
  if (!filled && !over) return next;

  const out = structuredClone(next);
  if (filled && dp != null) out.parallelism.dp = null;
  const perStage = Math.floor(count / pp);
  const node = networkOf(next.machine, presets)?.[0]?.size ?? perStage;
  const candidates = perStage >= 1 ? divisorsDescending(perStage, Math.max(1, node)) : [];
  const answers = new Map();
  const tried = (t) => {
    if (!answers.has(t)) {
      const s = structuredClone(out);
      s.parallelism.tp = t;
      answers.set(t, { state: s, ...check(s) });
    }
    return answers.get(t);
  };
  // The largest accepted TP that fits in memory, else the largest accepted one (the fit
  // advice then says what to change).
  for (const want of ['fits', 'ok']) {
    const t = candidates.find((c) => tried(c)[want]);
    if (t !== undefined) return answers.get(t).state;
  }
  return out;
}
