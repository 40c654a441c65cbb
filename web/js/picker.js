// Searchable pickers for the model and the hardware: a text box above each list that filters
// its presets by name, key or family as one types (an ARIA 1.2 combobox with a listbox popup:
// arrow keys move, Enter chooses, Escape closes or clears; a tap or click chooses too). The
// select stays the control that holds the value: choosing sets it and fires its "change",
// so the form (form.js), the link and everything that selects by value work as before.
import { h, $ } from './dom.js';

// "llama-3.1-70b" -> "Llama"; a model's kind from its document (a mixture, latent attention,
// Mamba layers), so that "moe" or "mamba" finds them.
export function modelFamily(key, doc) {
  const head = key.split('-')[0].replace(/[\d.]+$/, '') || key;
  const text = JSON.stringify(doc);
  const kinds = [];
  if (text.includes('"moe"')) kinds.push('mixture of experts (MoE)');
  if (text.includes('"mla"')) kinds.push('latent attention (MLA)');
  if (text.includes('"mamba"')) kinds.push('Mamba');
  return [head[0].toUpperCase() + head.slice(1), ...(kinds.length ? kinds : ['dense'])].join(' · ');
}

// The vendor: the first word of the chip's name ("NVIDIA", "AMD", "Google", "Intel").
export const chipFamily = (doc) => String(doc?.name ?? '').split(' ')[0];

// -> [{value, name, meta, text}] of the model list and of the hardware list.
export function modelItems(presets) {
  return Object.entries(presets.models).map(([key, doc]) => {
    const meta = `${key} · ${modelFamily(key, doc)}`;
    return { value: key, name: doc.name, meta, text: `${doc.name} ${meta}`.toLowerCase() };
  });
}

export function hardwareItems(presets) {
  const systems = Object.entries(presets.systems).map(([key, doc]) => {
    const chip = presets.chips[doc.chip];
    const meta = `system · ${doc.count} × ${chip?.name ?? doc.chip} · ${key} · ${chipFamily(chip)}`;
    return { value: `system:${key}`, name: doc.name, meta, text: `${doc.name} ${meta}`.toLowerCase() };
  });
  const chips = Object.entries(presets.chips).map(([key, doc]) => {
    const meta = `chip × count · ${key} · ${chipFamily(doc)}`;
    return { value: `chip:${key}`, name: doc.name, meta, text: `${doc.name} ${meta}`.toLowerCase() };
  });
  return [...systems, ...chips];
}

// Every word of the query in the item's name, key or family.
export function filterItems(items, query) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return items.filter((item) => words.every((w) => item.text.includes(w)));
}

function enhance(select, items, { noun, label }) {
  const id = `${select.id}-search`;
  const input = h('input', {
    type: 'text', id, class: 'picker-input', role: 'combobox', 'aria-autocomplete': 'list', 'aria-expanded': 'false',
    'aria-controls': `${id}-list`, 'aria-label': label, placeholder: `Search ${items.length} ${noun}…`,
    autocomplete: 'off', spellcheck: 'false', 'aria-describedby': `${id}-status`,
  });
  const list = h('ul', { id: `${id}-list`, class: 'picker-list', role: 'listbox', 'aria-label': `Matching ${noun}`, hidden: true });
  const status = h('p', { id: `${id}-status`, class: 'visually-hidden', role: 'status' });
  const none = h('p', { class: 'picker-none hint', hidden: true });
  select.before(h('div', { class: 'picker' }, input, list, none, status));

  let shown = [];
  let active = -1;

  function setActive(i) {
    active = i;
    [...list.children].forEach((li, j) => li.setAttribute('aria-selected', String(j === i)));
    const li = list.children[i];
    if (li) {
      input.setAttribute('aria-activedescendant', li.id);
      li.scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  }

  function open(query) {
    shown = filterItems(items, query);
    list.replaceChildren(...shown.map((item, i) => h('li', {
      id: `${id}-opt-${i}`, role: 'option', 'aria-selected': 'false', class: item.value === select.value ? 'picker-current' : null,
      dataset: { value: item.value },
    }, h('span', { class: 'picker-name', text: item.name }), ' ', h('span', { class: 'picker-meta', text: item.meta }))));
    none.hidden = shown.length > 0;
    none.textContent = shown.length ? '' : `No ${noun} match “${query.trim()}”.`;
    list.hidden = shown.length === 0;
    input.setAttribute('aria-expanded', String(shown.length > 0));
    setActive(shown.length ? 0 : -1);
    status.textContent = shown.length === 1 ? '1 match' : `${shown.length} matches`;
  }

  function close() {
    list.hidden = true;
    none.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  }

  function choose(item) {
    close();
    input.value = '';
    status.textContent = `${item.name} chosen.`;
    if (select.value === item.value) return;
    select.value = item.value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  }

  input.addEventListener('input', () => {
    if (input.value.trim()) open(input.value);
    else close();
  });
  input.addEventListener('keydown', (e) => {
    const isOpen = !list.hidden;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!isOpen) {
        open(input.value);
        return;
      }
      if (!shown.length) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((active + step + shown.length) % shown.length);
    } else if (e.key === 'Enter') {
      // Never submits the form; with a list open, chooses the highlighted preset.
      e.preventDefault();
      if (isOpen && shown[active]) choose(shown[active]);
    } else if (e.key === 'Escape') {
      if (isOpen) {
        e.preventDefault();
        close();
      } else if (input.value) {
        e.preventDefault();
        input.value = '';
      }
    }
  });
  // The focus stays in the box while an option is pressed, so the list is still there for the click.
  list.addEventListener('mousedown', (e) => e.preventDefault());
  list.addEventListener('click', (e) => {
    const li = e.target.closest('[role="option"]');
    const item = li && shown[Number(li.id.slice(`${id}-opt-`.length))];
    if (item) choose(item);
  });
  input.addEventListener('blur', close);
}

export function createPickers(presets) {
  enhance($('#model'), modelItems(presets), { noun: 'models', label: 'Search the models by name, key or family' });
  enhance($('#hardware'), hardwareItems(presets), { noun: 'systems and chips', label: 'Search the systems and chips by name, key or vendor' });
}
