// Engine messages in the reader's words. The engine names fields by their JSON path
// ("model.heads", "system.count"); the page says "Attention heads", "Number of chips": the
// label of the input that holds the value. The path itself stays available as the error's
// title (a tooltip), for whoever writes scenario files.
//   plainMessage(text, fieldOf, labelOf) -> the text with each path that has an input on
//     the page put as “Label” (fieldOf(path): the input's id for exactly that path, or null)
//   outOfRange(text) -> whether the message is the engine's range check
import { plainNumbers } from '../format.js';

const PATH = /\b(?:model|system|parallelism|workload|engine|cost)(?:\.[A-Za-z_]\w*|\[\d+\])+/g;

export function plainMessage(text, fieldOf, labelOf) {
  return plainNumbers(text).replace(PATH, (path) => {
    const id = fieldOf(path);
    if (!id || !document.querySelector(`#${CSS.escape(id)}`)) return path;
    const label = labelOf(id);
    return label && label !== id ? `“${label}”` : path;
  });
}

const RANGE = /^must be (?:an integer|a number|a whole number)[^[]* in \[/;
export const outOfRange = (text) => RANGE.test(String(text));
