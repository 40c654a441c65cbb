// The Sweep card's controller: on each evaluated inference scenario, asks the sweep worker
// (sweep-client.js) for the chosen chart's sweep (sweep-plan.js) of the scenario and of each
// pinned one (drawn dashed, on the same values), and draws the answer when it is still the
// one wanted. Nothing here blocks typing: the worker computes, the latest request wins.
import { $ } from './dom.js';
import { createChart } from './views/chart.js';
import { createSweepView } from './views/sweep-view.js';
import { sweepRequest } from './sweep-plan.js';
import { pointsCsvButton } from './share.js';

export function createSweepPanel(sweeper, { onView }) {
  const chart = createChart($('#sweep-chart'));
  const view = createSweepView({ onView });
  let wanted = null;
  let shown = null; // {scenario, points, axis} drawn last: what Download CSV saves
  pointsCsvButton($('#sweep-csv'), () => shown, (now) => `-sweep-${now.axis}`);

  return {
    chart,
    // scenario: the inference scenario just evaluated, or null (training, or an input error:
    // the card keeps what it shows); choice: view.sweep; fit: engine.fit()'s answer;
    // pinned: [{label, scenario}] of the pinned scenarios that evaluated.
    update(scenario, choice, fit, pinned = []) {
      const request = sweepRequest(scenario, choice, fit);
      if (!request) {
        wanted = null;
        return;
      }
      const overlays = pinned.filter((p) => p.scenario?.workload?.kind !== 'training');
      const key = JSON.stringify([choice, request, overlays]);
      if (key === wanted) return;
      wanted = key;
      view.pending(choice);
      const jobs = [sweeper.run('sweep', 'sweep', request),
        ...overlays.map((o, i) => sweeper.run(`sweep-pin-${i}`, 'sweep', { scenario: o.scenario, axis: request.axis, values: request.values }))];
      Promise.all(jobs).then(([answer, ...others]) => {
        if (wanted !== key || answer === null) return;
        const drawn = others.map((a, i) => ({ label: overlays[i].label, answer: a })).filter((o) => o.answer?.ok === true);
        view.render(answer, choice, chart, { timing: sweeper.timing('sweep'), overlays: drawn });
        shown = answer.ok === true && answer.points?.length ? { scenario, points: answer.points, axis: answer.axis } : null;
        $('#sweep-csv').disabled = shown === null;
      });
    },
  };
}
