// What one link may hold, so that no link can freeze the page or bury it under its notice
// (fromHash, state.js). What is over a bound is left out, named in a short notice; the rest
// of the link is read as usual.
//   LINK_BOUNDS.chars       the link's length, in characters after the "#"; the settings past
//                           it are left out (a link the page writes is a few kilobytes, one
//                           with three pins and 64-die packages about 25)
//   LINK_BOUNDS.keys        settings in one scenario (the link's own, each pinned one's); the
//                           ones after are left out (a 64-die package is about 600)
//   LINK_BOUNDS.valueChars  characters in one value (a model's name, a number, a trade-off
//                           knob's list of values, itself at most 2,000: tradeoff-plan.js); a
//                           pin's value, a whole scenario, is bounded by `chars` instead
//   LINK_BOUNDS.keyChars    characters in one setting's name
//   LINK_BOUNDS.noticeChars characters in the notice a link gets, whatever it holds
export const LINK_BOUNDS = { chars: 32768, keys: 1000, valueChars: 8192, keyChars: 64, noticeChars: 2000 };

// The most entries one list of a notice names before "and N more".
const NAMED = 6;

const count = (n) => n.toLocaleString('en-US');
// A setting's name as a notice quotes it: short, one line (control characters shown as '?').
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const quoteKey = (key) => `"${key.length > 40 ? `${key.slice(0, 40)}…` : key}"`.replace(/[\u0000-\u001f\u007f]/g, '?');

// "a, b, c and 3 more"
export function namedList(items, named = NAMED) {
  if (items.length <= named) return items.join('; ');
  return `${items.slice(0, named).join('; ')} and ${count(items.length - named)} more`;
}

// A notice cut at LINK_BOUNDS.noticeChars.
export function clipNotice(text) {
  if (text === null || text.length <= LINK_BOUNDS.noticeChars) return text;
  return `${text.slice(0, LINK_BOUNDS.noticeChars - 1)}…`;
}

// text: a link without its "#". nested: the keys whose value is itself settings (pin), held to
// `chars` rather than `valueChars`. -> { params: URLSearchParams of what is kept, note: a
// sentence naming what was left out, or null }.
export function boundLink(text, { nested = [] } = {}) {
  const over = text.length > LINK_BOUNDS.chars;
  const entries = [...new URLSearchParams(text).entries()];
  const longKeys = [];
  const longValues = [];
  const kept = [];
  let length = 0;
  let past = null; // the entries past the length bound: [first key, how many]
  let extra = null; // the entries past the key bound: [first key, how many]
  for (const [key, value] of entries) {
    if (key.length > LINK_BOUNDS.keyChars) longKeys.push(key.length);
    else if (value.length > LINK_BOUNDS.valueChars && !nested.includes(key)) longValues.push(`${quoteKey(key)} (${count(value.length)} characters)`);
    else if (kept.length >= LINK_BOUNDS.keys) extra = extra ? [extra[0], extra[1] + 1] : [key, 1];
    else if (over && (length += new URLSearchParams([[key, value]]).toString().length + 1) > LINK_BOUNDS.chars) past = past ? [past[0], past[1] + 1] : [key, 1];
    else kept.push([key, value]);
  }
  const parts = [];
  if (longValues.length) parts.push(`${namedList(longValues)}: a value holds at most ${count(LINK_BOUNDS.valueChars)} characters`);
  if (longKeys.length) {
    parts.push(`${count(longKeys.length)} setting name${longKeys.length > 1 ? 's' : ''} over ${LINK_BOUNDS.keyChars} characters`);
  }
  if (extra) parts.push(`${count(extra[1])} settings from ${quoteKey(extra[0])} on: a scenario holds at most ${count(LINK_BOUNDS.keys)}`);
  if (past) {
    parts.push(`${count(past[1])} settings from ${quoteKey(past[0])} on: a link is read up to ${count(LINK_BOUNDS.chars)} characters (this one has ${count(text.length)})`);
  }
  const note = parts.length ? `This link holds more than the page reads, so part of it was left out: ${parts.join('; ')}.` : null;
  return { params: new URLSearchParams(kept), note };
}
