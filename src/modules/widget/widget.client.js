/*! AgentPages chat widget. Embed: <script src="{BASE_URL}/widget.js" data-widget-id="wgt_..." async></script>
 * Plain ES2017, no dependencies. Renders inside a shadow root so the host page's styles cannot
 * reach it (and its styles cannot leak out). Every text is inserted with textContent: answers are
 * never parsed as HTML. Keyboard: Tab reaches the launcher, Enter/Space opens, Escape closes and
 * returns focus to the launcher, the conversation is an aria-live log. */
(function () {
  'use strict';
  var script = document.currentScript || document.querySelector('script[data-widget-id]');
  if (!script) return;
  var widgetId = script.getAttribute('data-widget-id');
  if (!widgetId || window['__agentpagesWidget_' + widgetId]) return;
  window['__agentpagesWidget_' + widgetId] = true;
  var base = new URL(script.src, location.href).origin;
  var api = base + '/api/widget/public/' + encodeURIComponent(widgetId);
  var siteOrigin = location.origin;

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    if (text) e.textContent = text;
    return e;
  }

  function safeColor(c, fallback) {
    return /^#[0-9a-fA-F]{6}$/.test(c || '') ? c : fallback;
  }

  var CSS =
    // !important on :host beats the page's !important rules on the host element (inner context wins);
    // fonts and colours are set on the wrapper, which page selectors cannot match, so nothing inherits from the page.
    ':host{all:initial!important;display:block!important;position:fixed!important;z-index:2147483000!important;bottom:20px!important;top:auto!important;width:auto!important;height:auto!important;margin:0!important;padding:0!important;border:0!important;background:none!important;visibility:visible!important;opacity:1!important;transform:none!important}' +
    ':host(.left){left:20px!important;right:auto!important}:host(.right){right:20px!important;left:auto!important}' +
    '.w{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c1f24;text-align:left;letter-spacing:normal}' +
    '*{box-sizing:border-box;font:inherit}' +
    '.launcher{width:56px;height:56px;border-radius:50%;border:0;cursor:pointer;background:var(--bg);color:var(--fg);box-shadow:0 4px 14px rgba(0,0,0,.25);display:flex;align-items:center;justify-content:center}' +
    '.launcher svg{width:26px;height:26px;fill:currentColor}' +
    'button:focus-visible,input:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}' +
    '.panel{position:absolute;bottom:68px;width:340px;max-width:calc(100vw - 40px);height:460px;max-height:calc(100vh - 110px);background:#fff;border-radius:12px;box-shadow:0 8px 30px rgba(0,0,0,.28);display:flex;flex-direction:column;overflow:hidden}' +
    ':host(.left) .panel{left:0}:host(.right) .panel{right:0}' +
    '.panel[hidden]{display:none}' +
    '.head{background:var(--bg);color:var(--fg);padding:12px 14px;display:flex;align-items:center;justify-content:space-between;gap:8px}' +
    '.head h2{margin:0;font-size:15px;font-weight:600}' +
    '.close{background:transparent;border:0;color:inherit;font-size:22px;line-height:1;cursor:pointer;padding:2px 6px;border-radius:6px}' +
    '.log{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:8px;background:#f6f7f9}' +
    '.msg{max-width:85%;padding:8px 11px;border-radius:12px;white-space:pre-wrap;word-wrap:break-word}' +
    '.bot{background:#fff;border:1px solid #e1e4e8;align-self:flex-start}' +
    '.me{background:var(--bg);color:var(--fg);align-self:flex-end}' +
    '.wait{color:#5b6270;font-style:italic}' +
    'form{display:flex;gap:6px;padding:10px;border-top:1px solid #e1e4e8;background:#fff}' +
    'input{flex:1;min-width:0;padding:9px 10px;border:1px solid #c8ccd2;border-radius:8px;color:#1c1f24;background:#fff}' +
    '.send{padding:0 14px;border:0;border-radius:8px;background:var(--bg);color:var(--fg);cursor:pointer;font-weight:600}' +
    '.send:disabled{opacity:.6;cursor:default}' +
    '.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}' +
    '.foot{font-size:11px;color:#5b6270;text-align:center;padding:0 0 6px;background:#fff}' +
    '.foot a{color:#3d4450}' +
    '.leadbtn{background:#fff;border:1px solid var(--bg);color:#1c1f24;border-radius:8px;padding:6px 10px;cursor:pointer;align-self:flex-start}' +
    '.lead{flex-direction:column;gap:6px}.lead[hidden],form[hidden]{display:none}.lead label{font-size:12px;font-weight:600;color:#3d4450}' +
    '.lead textarea{min-height:64px;padding:8px 10px;border:1px solid #c8ccd2;border-radius:8px;color:#1c1f24;background:#fff;resize:vertical}' +
    '.row{display:flex;gap:6px;justify-content:flex-end}.cancel{background:#fff;border:1px solid #c8ccd2;border-radius:8px;padding:8px 12px;cursor:pointer;color:#1c1f24}' +
    'textarea:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}';

  function render(cfg) {
    var host = el('div', { 'data-agentpages-widget': widgetId });
    host.className = cfg.position === 'bottom-left' ? 'left' : 'right';
    var root = host.attachShadow({ mode: 'open' });
    var style = el('style');
    style.textContent = CSS;
    root.appendChild(style);
    var wrap = el('div', { class: 'w' });
    wrap.style.setProperty('--bg', safeColor(cfg.primary_color, '#1f6feb'));
    wrap.style.setProperty('--fg', safeColor(cfg.text_color, '#ffffff'));
    root.appendChild(wrap);

    var panelId = 'agp-panel';
    var launcher = el('button', { type: 'button', class: 'launcher', 'aria-expanded': 'false', 'aria-controls': panelId, 'aria-label': 'Open chat with ' + cfg.company_name });
    launcher.innerHTML = '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"/></svg>';
    var panel = el('div', { id: panelId, class: 'panel', role: 'dialog', 'aria-label': cfg.title });
    panel.hidden = true;
    var head = el('div', { class: 'head' });
    head.appendChild(el('h2', {}, cfg.title));
    var close = el('button', { type: 'button', class: 'close', 'aria-label': 'Close chat' }, '\u00d7');
    head.appendChild(close);
    var log = el('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions', tabindex: '0', 'aria-label': 'Conversation' });
    var form = el('form', {});
    var label = el('label', { for: 'agp-q', class: 'sr' }, 'Your question');
    var input = el('input', { id: 'agp-q', type: 'text', maxlength: '2000', autocomplete: 'off', placeholder: 'Ask a question\u2026' });
    var send = el('button', { type: 'submit', class: 'send' }, 'Send');
    form.appendChild(label);
    form.appendChild(input);
    form.appendChild(send);
    // "Leave your details": name, address and request go to the company's inbox; it answers by email.
    var lead = el('form', { class: 'lead', 'aria-label': 'Leave your details for ' + cfg.company_name });
    lead.hidden = true;
    function leadField(id, text, tag, attrs) {
      lead.appendChild(el('label', { for: id }, text));
      var f = el(tag, attrs);
      f.id = id;
      lead.appendChild(f);
      return f;
    }
    var leadName = leadField('agp-l-name', 'Your name', 'input', { type: 'text', maxlength: '200', autocomplete: 'name', required: '' });
    var leadEmail = leadField('agp-l-email', 'Your email address', 'input', { type: 'email', maxlength: '254', autocomplete: 'email', required: '' });
    var leadMessage = leadField('agp-l-msg', 'What do you need?', 'textarea', { maxlength: '5000', required: '' });
    var leadRow = el('div', { class: 'row' });
    var leadCancel = el('button', { type: 'button', class: 'cancel' }, 'Cancel');
    var leadSend = el('button', { type: 'submit', class: 'send' }, 'Send');
    leadRow.appendChild(leadCancel);
    leadRow.appendChild(leadSend);
    lead.appendChild(leadRow);
    panel.appendChild(head);
    panel.appendChild(log);
    panel.appendChild(form);
    panel.appendChild(lead);
    var foot = el('div', { class: 'foot' }, 'Answers come from ' + cfg.company_name + '\u2019s profile');
    if (cfg.powered_by && /^https?:\/\//.test(cfg.powered_by.url)) {
      foot.appendChild(document.createTextNode(' \u00b7 '));
      foot.appendChild(el('a', { href: cfg.powered_by.url, target: '_blank', rel: 'noopener' }, 'Powered by ' + cfg.powered_by.name));
    }
    panel.appendChild(foot);
    wrap.appendChild(panel);
    wrap.appendChild(launcher);

    var history = [];
    function add(role, text, extra) {
      var m = el('div', { class: 'msg ' + (role === 'user' ? 'me' : 'bot') + (extra ? ' ' + extra : '') }, text);
      log.appendChild(m);
      log.scrollTop = log.scrollHeight;
      return m;
    }
    add('assistant', cfg.greeting);
    history.push({ role: 'assistant', content: cfg.greeting });

    function showLead(open, lastQuestion) {
      lead.hidden = !open;
      form.hidden = open;
      if (open) {
        if (lastQuestion && !leadMessage.value) leadMessage.value = lastQuestion;
        leadName.focus();
      } else input.focus();
    }
    function offerLead(text, lastQuestion) {
      if (!cfg.accepts_requests) return;
      var b = el('button', { type: 'button', class: 'leadbtn' }, text);
      b.addEventListener('click', function () { showLead(true, lastQuestion); });
      log.appendChild(b);
      log.scrollTop = log.scrollHeight;
    }
    offerLead('Leave your details for ' + cfg.company_name);
    leadCancel.addEventListener('click', function () { showLead(false); });
    lead.addEventListener('submit', function (e) {
      e.preventDefault();
      if (leadSend.disabled) return;
      leadSend.disabled = true;
      fetch(api + '/lead', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: leadName.value, email: leadEmail.value, message: leadMessage.value, site_origin: siteOrigin }),
      })
        .then(function (r) {
          return r.json().then(function (body) {
            var detail = body && body.detail;
            if (!r.ok) throw new Error(typeof detail === 'string' ? detail : detail && detail[0] && detail[0].msg ? detail[0].msg : 'Sorry, your details could not be sent.');
            return body;
          });
        })
        .then(function (body) {
          leadMessage.value = '';
          showLead(false);
          add('assistant', body.message);
        })
        .catch(function (err) {
          add('assistant', err && err.message && err.message !== 'Failed to fetch' ? err.message : 'Sorry, your details could not be sent right now.');
        })
        .then(function () { leadSend.disabled = false; });
    });

    function setOpen(open) {
      panel.hidden = !open;
      launcher.setAttribute('aria-expanded', String(open));
      launcher.setAttribute('aria-label', (open ? 'Close' : 'Open') + ' chat with ' + cfg.company_name);
      if (open) input.focus();
      else launcher.focus();
    }
    launcher.addEventListener('click', function () { setOpen(panel.hidden); });
    close.addEventListener('click', function () { setOpen(false); });
    panel.addEventListener('keydown', function (e) {
      if (e.key === 'Escape') {
        e.stopPropagation();
        setOpen(false);
      }
    });

    var busy = false;
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var q = input.value.trim();
      if (!q || busy) return;
      busy = true;
      send.disabled = true;
      input.value = '';
      add('user', q);
      history.push({ role: 'user', content: q.slice(0, 2000) });
      var wait = add('assistant', 'Thinking\u2026', 'wait');
      fetch(api + '/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: history.slice(-20), site_origin: siteOrigin }),
      })
        .then(function (r) {
          return r.json().then(function (body) {
            if (!r.ok) throw new Error(r.status === 429 ? 'Too many questions at once: please wait a moment.' : (body && typeof body.detail === 'string' ? body.detail : 'Sorry, something went wrong.'));
            return body;
          });
        })
        .then(function (body) {
          wait.remove();
          add('assistant', body.answer);
          history.push({ role: 'assistant', content: String(body.answer).slice(0, 2000) });
          if (body.answered === false) offerLead('Ask ' + cfg.company_name + ' directly', q);
        })
        .catch(function (err) {
          wait.remove();
          add('assistant', err && err.message && err.message !== 'Failed to fetch' ? err.message : 'Sorry, the chat is unavailable right now.');
        })
        .then(function () {
          busy = false;
          send.disabled = false;
          input.focus();
        });
    });

    (document.body || document.documentElement).appendChild(host);
  }

  fetch(api + '/config?site_origin=' + encodeURIComponent(siteOrigin))
    .then(function (r) {
      if (!r.ok) throw new Error('widget unavailable (' + r.status + ')');
      return r.json();
    })
    .then(function (cfg) {
      if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', function () { render(cfg); });
      else render(cfg);
    })
    .catch(function (err) {
      if (window.console) console.warn('[AgentPages widget] ' + err.message);
    });
})();
