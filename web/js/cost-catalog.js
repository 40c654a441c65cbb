// The cost catalogue the page offers as choices: the cloud offerings (presets/costs/cloud.json:
// provider, instance, chip, $/chip-hour, date, source), the process nodes
// (presets/costs/process-nodes.json), the economic defaults (presets/costs/defaults.json) and
// the manufacturing constants (presets/costs/packaging.json: a custom wafer's defaults).
// The engine has them built in; the page reads the same files as static assets (dev.sh
// copies them into the site), once, on first use.
//   loadCostCatalog() -> Promise<{ offerings, nodes, defaults, packaging }>   (empty when a file is missing)
const FILES = {
  offerings: ['cloud.json', 'offerings'], nodes: ['process-nodes.json', 'nodes'], defaults: ['defaults.json', null], packaging: ['packaging.json', null],
};

let pending = null;

async function read(file) {
  try {
    const response = await fetch(new URL(`presets/costs/${file}`, document.baseURI));
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

export function loadCostCatalog() {
  pending ??= Promise.all(Object.entries(FILES).map(async ([key, [file, list]]) => {
    const doc = await read(file);
    return [key, list ? (Array.isArray(doc?.[list]) ? doc[list] : []) : (doc ?? {})];
  })).then(Object.fromEntries);
  return pending;
}

// The offerings of one chip first, then the others: [[label, offerings]].
export function offeringGroups(offerings, chipKey, chipName) {
  const mine = offerings.filter((o) => o.chip === chipKey);
  const others = offerings.filter((o) => o.chip !== chipKey);
  return [[`For ${chipName}`, mine], ['Other chips', others]].filter(([, list]) => list.length);
}

// The offering a price came from: of this chip at this price, else of any chip at it.
export function offeringFor(offerings, chipKey, usdPerChipHour) {
  if (usdPerChipHour == null) return null;
  const at = offerings.filter((o) => o.usd_per_chip_hour === usdPerChipHour);
  return at.find((o) => o.chip === chipKey) ?? at[0] ?? null;
}
