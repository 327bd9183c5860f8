// The DOM layer's page side (C++ side and the why: src/app/dom.hpp). After every frame the app
// publishes the controls it drew, in reading order, with roles, names and rectangles; this module
// keeps one real DOM element per control, positioned over the canvas, and sends what happens to
// them back to the app: activations, committed values, drafts, focus.
//
// Visual rules: elements are transparent (the canvas draws the look); a text field shows its DOM
// text only while it has focus (the canvas then leaves the value out); a visible focus ring marks
// the focused element (:focus-visible). Text fields and selects take the pointer (caret, selection,
// context-menu paste, the native picker on phones); everything else leaves the pointer to the canvas.
const PAUSE_MS = 700;  // typing stops this long: the value is applied (Enter and blur apply at once)

const TEXT_ROLES = new Set(['textbox', 'number', 'combobox']);

export function createDomLayer({ root, canvas, module, wake }) {
  const byId = new Map();      // control id -> element
  const data = new Map();      // control id -> the last control description
  const rectCache = new Map(); // element -> "x,y,w,h,clip" it was last placed at
  const resync = new Set();    // ids whose value to re-read from the app once they lose focus
  let order = [];              // control ids in reading order
  let lists = new Map();       // combobox id -> its listbox element
  let timers = new Map();      // id -> pending pause-commit timer
  let domIds = 0;
  let moving = false;          // the focused element is being moved in the DOM (place)

  const send = (type, id, value = '') => {
    const s = [type, id, String(value)];
    const ptrs = s.map((v) => {
      const n = module.lengthBytesUTF8(v) + 1;
      const p = module._malloc(n);
      module.stringToUTF8(v, p, n);
      return p;
    });
    try { module._vramcalc_dom_event(ptrs[0], ptrs[1], ptrs[2]); } finally { ptrs.forEach((p) => module._free(p)); }
    wake();
  };
  const idOf = (el) => (el && el.dataset ? el.dataset.id : undefined);
  const controlOf = (target) => (target && target.closest ? target.closest('[data-id]') : null);

  function make(c) {
    let el;
    switch (c.role) {
      case 'checkbox':
        el = document.createElement('input');
        el.type = 'checkbox';
        break;
      case 'textbox': case 'number': case 'combobox':
        el = document.createElement('input');
        el.type = 'text';
        el.spellcheck = false;
        el.setAttribute('autocapitalize', 'off');
        if (c.role === 'number') {
          el.setAttribute('role', 'spinbutton');
          el.setAttribute('inputmode', 'decimal');
          el.autocomplete = 'off';
        } else if (c.role === 'combobox') {
          el.setAttribute('role', 'combobox');
          el.setAttribute('aria-autocomplete', 'list');
          el.setAttribute('aria-expanded', 'true');
          el.autocomplete = 'off';
        } else {
          el.autocomplete = 'on';  // the browser may offer what was typed before (autofill)
          el.name = c.id;
        }
        break;
      case 'select':
        el = document.createElement('select');
        break;
      case 'option':
        el = document.createElement('div');
        el.setAttribute('role', 'option');
        break;
      case 'heading':
        el = document.createElement(c.level === 3 ? 'h3' : 'h2');
        break;
      case 'table':
        el = document.createElement('table');
        break;
      case 'image':
        el = document.createElement('div');
        el.setAttribute('role', 'img');
        break;
      case 'text':
        el = document.createElement('p');
        break;
      case 'alert':
        el = document.createElement('div');
        el.setAttribute('role', 'alert');
        break;
      default:
        el = document.createElement('button');
        el.type = 'button';
    }
    el.className = `vc vc-${c.role}`;
    el.dataset.id = c.id;
    el.dataset.role = c.role;
    el.id = `vc${++domIds}`;
    return el;
  }

  const setAttr = (el, name, value) => {
    if (value === undefined || value === null || value === false) {
      if (el.hasAttribute(name)) el.removeAttribute(name);
    } else {
      const v = value === true ? 'true' : String(value);
      if (el.getAttribute(name) !== v) el.setAttribute(name, v);
    }
  };
  const setText = (el, text) => { if (el.textContent !== text) el.textContent = text; };

  function fill(el, c, previous) {
    const same = previous && JSON.stringify(previous) === JSON.stringify(c);
    if (same) return;
    const focused = document.activeElement === el;
    switch (c.role) {
      case 'button':
        setText(el, c.label);
        setAttr(el, 'aria-pressed', c.pressed === undefined ? null : String(c.pressed));
        setAttr(el, 'aria-expanded', c.expanded === undefined ? null : String(c.expanded));
        setAttr(el, 'aria-haspopup', c.haspopup || null);
        break;
      case 'checkbox':
        setAttr(el, 'aria-label', c.label);
        if (el.checked !== !!c.checked) el.checked = !!c.checked;
        break;
      case 'textbox': case 'number': case 'combobox':
        setAttr(el, 'aria-label', c.label);
        if (!focused || el.dataset.resync) {
          if (el.value !== c.value) el.value = c.value;
          delete el.dataset.resync;
        }
        if (c.role === 'number') {
          setAttr(el, 'aria-valuemin', c.min);
          setAttr(el, 'aria-valuemax', c.max);
          const n = Number(String(c.value).replace(/[,\s_]/g, ''));
          setAttr(el, 'aria-valuenow', Number.isFinite(n) ? n : null);
          setAttr(el, 'aria-valuetext', c.value);
        }
        el.style.paddingRight = c.padRight ? `${c.padRight}px` : '';
        setAttr(el, 'data-editing', c.editing ? 'true' : null);
        break;
      case 'select': {
        setAttr(el, 'aria-label', c.label);
        const opts = c.options || [];
        const same = el.options.length === opts.length && opts.every((o, i) => el.options[i].text === o);
        if (!same) {
          el.textContent = '';
          opts.forEach((o, i) => { const op = document.createElement('option'); op.value = String(i); op.text = o; el.add(op); });
        }
        if (el.selectedIndex !== c.selected) el.selectedIndex = c.selected;
        break;
      }
      case 'option':
        setText(el, c.label);
        setAttr(el, 'aria-selected', c.selected === 1 ? 'true' : 'false');
        break;
      case 'heading': case 'text':
        setText(el, c.label);
        break;
      case 'alert':
        setText(el, c.description ? `${c.label}: ${c.description}` : c.label);
        break;
      case 'image':
        setAttr(el, 'aria-label', c.label);
        break;
      case 'table': {
        el.textContent = '';
        const caption = document.createElement('caption');
        caption.textContent = c.label;
        el.appendChild(caption);
        const body = document.createElement('tbody');
        for (const [label, value, note] of c.rows || []) {
          const tr = document.createElement('tr');
          const th = document.createElement('th');
          th.scope = 'row';
          th.textContent = label;
          const td = document.createElement('td');
          td.textContent = value;
          tr.append(th, td);
          if (note) { const n = document.createElement('td'); n.textContent = note; tr.appendChild(n); }
          body.appendChild(tr);
        }
        el.appendChild(body);
        break;
      }
      default:
        break;
    }
    if (c.role !== 'table' && c.role !== 'alert') setAttr(el, 'aria-description', c.description || null);
    setAttr(el, 'aria-invalid', c.invalid ? 'true' : null);
    setAttr(el, 'aria-keyshortcuts', c.shortcut || null);
    const interactive = !['option', 'heading', 'table', 'image', 'text', 'alert'].includes(c.role);
    if (interactive) el.tabIndex = c.focusable === false ? -1 : 0;
    el.classList.toggle('vc-in-popup', !!c.popup);
  }

  // Puts `el` before `before` among parent's children; an element already there is not touched
  // (a move blurs the focused element, so it is moved only when its place really changed).
  function place(parent, el, before) {
    if (el.parentNode === parent && (el === before || el.nextSibling === before)) return;
    const active = document.activeElement;
    if (el === active || el.contains(active)) {
      // Moving it blurs it: the blur and the focus that follow are not the reader's (no commit).
      // Only text fields have a selection (a checkbox's setSelectionRange throws InvalidStateError).
      const start = active instanceof HTMLInputElement && active.type === 'text' ? [active.selectionStart, active.selectionEnd] : null;
      moving = true;
      try {
        parent.insertBefore(el, before);
        active.focus({ preventScroll: true });
        if (start) active.setSelectionRange(start[0], start[1]);
      } finally {
        moving = false;
      }
    } else {
      parent.insertBefore(el, before);
    }
  }

  function applyStructure(state) {
    const seen = new Set();
    const newLists = new Map();
    let lastCombo = null;
    let cursor = root.firstChild;
    let anyPopup = false;
    for (const c of state.controls) {
      seen.add(c.id);
      let el = byId.get(c.id);
      if (el && el.dataset.role !== c.role) {  // a new element for the new role, in the old one's place
        if (cursor === el) cursor = el.nextSibling;
        el.remove();
        el = null;
      }
      if (!el) {
        el = make(c);
        byId.set(c.id, el);
      }
      fill(el, c, data.get(c.id));
      data.set(c.id, c);
      anyPopup = anyPopup || !!c.popup;
      if (c.role === 'option' && lastCombo) {
        let list = newLists.get(lastCombo.id) || lists.get(lastCombo.id);
        if (!list) {
          list = document.createElement('div');
          list.setAttribute('role', 'listbox');
          list.className = 'vc-listbox';
          list.id = `${lastCombo.el.id}-list`;
        }
        if (!newLists.has(lastCombo.id)) {
          newLists.set(lastCombo.id, list);
          setAttr(list, 'aria-label', lastCombo.label);
          place(root, list, cursor);
          cursor = list.nextSibling;
          setAttr(lastCombo.el, 'aria-controls', list.id);
        }
        list.appendChild(el);
        if (c.selected === 1) setAttr(lastCombo.el, 'aria-activedescendant', el.id);
        continue;
      }
      if (c.role === 'combobox') {
        lastCombo = { id: c.id, el, label: c.label };
        setAttr(el, 'aria-activedescendant', null);
      } else if (c.role !== 'option') {
        lastCombo = null;
      }
      place(root, el, cursor);
      cursor = el.nextSibling;
    }
    for (const [id, el] of byId) {
      if (!seen.has(id)) {
        el.remove();
        byId.delete(id);
        data.delete(id);
        rectCache.delete(el);
      }
    }
    for (const [id, list] of lists) if (!newLists.has(id)) list.remove();
    lists = newLists;
    order = state.controls.map((c) => c.id);
    root.classList.toggle('vc-popup-open', anyPopup);
    for (const c of state.controls) {
      if (c.autofocus && document.activeElement !== byId.get(c.id) && !byId.get(c.id).dataset.autofocused) {
        byId.get(c.id).dataset.autofocused = '1';
        byId.get(c.id).focus({ preventScroll: true });
      }
    }
    if (state.focus && byId.has(state.focus)) byId.get(state.focus).focus({ preventScroll: true });
  }

  function applyRects() {
    const count = module._vramcalc_dom_rect_count();
    const ptr = module._vramcalc_dom_rects();
    const heap = module.HEAPF32;
    for (let i = 0; i < count && i < order.length; i++) {
      const el = byId.get(order[i]);
      if (!el) continue;
      const b = (ptr >> 2) + i * 8;
      const x = heap[b], y = heap[b + 1], w = heap[b + 2], h = heap[b + 3];
      const cx0 = heap[b + 4], cy0 = heap[b + 5], cx1 = heap[b + 6], cy1 = heap[b + 7];
      const key = `${x},${y},${w},${h},${cx0},${cy0},${cx1},${cy1}`;
      if (rectCache.get(el) === key) continue;
      rectCache.set(el, key);
      el.style.transform = `translate(${x}px,${y}px)`;
      el.style.width = `${Math.max(0, w)}px`;
      el.style.height = `${Math.max(0, h)}px`;
      // The visible part of its window; -4 px leaves room for the focus ring where nothing is cut.
      const top = Math.max(-4, cy0 - y), left = Math.max(-4, cx0 - x);
      const right = Math.max(-4, x + w - cx1), bottom = Math.max(-4, y + h - cy1);
      const hidden = top >= h || left >= w || right >= w || bottom >= h;
      el.style.clipPath = hidden ? 'inset(50%)' : `inset(${top}px ${right}px ${bottom}px ${left}px)`;
      el.classList.toggle('vc-clipped', hidden);
    }
  }

  // After every frame: the structure when it changed, the rectangles always (cheap when unchanged).
  // The app hands each structure out once: one that could not be applied whole is applied again
  // next frame, so an error never leaves controls of an earlier scenario in the DOM.
  let unapplied = '';
  function update() {
    const p = module._vramcalc_dom_take();
    if (p) unapplied = module.UTF8ToString(p);
    if (unapplied) {
      applyStructure(JSON.parse(unapplied));
      unapplied = '';  // not reached when it throws
    }
    if (resync.size) {
      for (const id of resync) {
        const el = byId.get(id);
        const c = data.get(id);
        if (el && c && document.activeElement !== el && 'value' in el && el.value !== c.value) el.value = c.value;
      }
      resync.clear();
    }
    applyRects();
  }

  // ── Events ──
  const commit = (el) => {
    const id = idOf(el);
    clearTimeout(timers.get(id));
    timers.delete(id);
    if (el.dataset.dirty) {
      delete el.dataset.dirty;
      send('commit', id, el.value);
    }
  };
  root.addEventListener('click', (e) => {
    const el = controlOf(e.target);
    if (!el) return;
    const role = el.dataset.role;
    if (role === 'button' || role === 'option') send('activate', idOf(el));
  });
  root.addEventListener('change', (e) => {
    const el = controlOf(e.target);
    if (!el) return;
    if (el.dataset.role === 'checkbox') send('commit', idOf(el), el.checked ? '1' : '0');
    else if (el.dataset.role === 'select') send('commit', idOf(el), el.selectedIndex);
  });
  root.addEventListener('input', (e) => {
    const el = controlOf(e.target);
    if (!el || !TEXT_ROLES.has(el.dataset.role)) return;
    const id = idOf(el);
    send('draft', id, el.value);
    if (el.dataset.role === 'combobox') return;  // a search filters as it goes; Enter picks
    el.dataset.dirty = '1';
    clearTimeout(timers.get(id));
    timers.set(id, setTimeout(() => commit(el), PAUSE_MS));
  });
  root.addEventListener('focusin', (e) => {
    if (moving) return;
    const el = controlOf(e.target);
    if (el) send('focus', idOf(el));
  });
  root.addEventListener('focusout', (e) => {
    if (moving) return;
    const el = controlOf(e.target);
    if (!el) return;
    const id = idOf(el);
    if (el.dataset.role === 'textbox' || el.dataset.role === 'number') {
      commit(el);
      resync.add(id);
    }
    if (el.dataset.role === 'combobox') {
      // Leaving the search closes its popup, unless focus moved within it.
      const to = e.relatedTarget;
      if (!to || !root.contains(to) || !to.classList.contains('vc-in-popup')) send('key', id, 'Escape');
    }
    send('blur', id);
  });
  // Keys on a control (called by main.js's window listener).
  function onKeydown(e) {
    const el = controlOf(e.target);
    if (!el) return;
    const role = el.dataset.role, id = idOf(el);
    if (role === 'combobox') {
      if (['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Enter', 'Escape'].includes(e.key)) {
        e.preventDefault();
        send('key', id, e.key);
      }
      return;
    }
    if (role === 'textbox' || role === 'number') {
      if (e.key === 'Enter') {
        e.preventDefault();
        el.dataset.dirty = '1';
        commit(el);
      } else if (e.key === 'Escape') {
        if (el.dataset.dirty || el.dataset.editing) {
          e.preventDefault();
          clearTimeout(timers.get(id));
          delete el.dataset.dirty;
          el.dataset.resync = '1';
          send('cancel', id);
        }
      } else if (role === 'number' && ['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown'].includes(e.key)) {
        e.preventDefault();
        commit(el);
        const up = e.key === 'ArrowUp' || e.key === 'PageUp';
        const big = e.shiftKey || e.key === 'PageUp' || e.key === 'PageDown';
        el.dataset.resync = '1';
        send('step', id, (up ? 1 : -1) * (big ? 10 : 1));
      }
      return;
    }
    if (role === 'checkbox' && e.key === 'Enter') {  // Space toggles natively; Enter too, as on buttons
      e.preventDefault();
      el.click();
    }
  }

  // The canvas under the pointer keeps hover feedback and wheel scrolling over text fields.
  const forward = (e) => {
    if (!controlOf(e.target)) return;
    const init = { clientX: e.clientX, clientY: e.clientY, screenX: e.screenX, screenY: e.screenY, bubbles: true,
      cancelable: true };
    if (e.type === 'wheel') {
      const w = new WheelEvent('wheel', { ...init, deltaX: e.deltaX, deltaY: e.deltaY, deltaMode: e.deltaMode });
      if (!canvas.dispatchEvent(w)) e.preventDefault();
    } else {
      canvas.dispatchEvent(new MouseEvent('mousemove', init));
    }
  };
  root.addEventListener('mousemove', forward);
  root.addEventListener('wheel', forward, { passive: false });

  return {
    update,
    onKeydown,
    pending: () => timers.size > 0,
    element: (id) => byId.get(id) || null,
    ids: () => order.slice(),
    isControl: (el) => !!controlOf(el) && root.contains(el),
  };
}
