/* report_dom.js - runs a godeye report page's script under node with a tiny
 * DOM stand-in and prints every text the page would show, one per line, then
 * "errors: N".  Usage: node report_dom.js report.html
 * Enough DOM for report.js only (elements, text, attributes, events ignored). */
'use strict';
const fs = require('fs');
const html = fs.readFileSync(process.argv[2], 'utf8');
const data = html.match(/<script type="application\/json" id="godeye-data">([\s\S]*?)<\/script>/)[1];
const code = html.match(/<script>\n([\s\S]*?)<\/script>/)[1];
const shown = [];
function El(tag) { this.tag = tag; this.children = []; this.attrs = {}; this.dataset = {}; this.style = {}; this.text = ''; }
El.prototype.appendChild = function (c) { this.children.push(c); return c; };
El.prototype.removeChild = function (c) { this.children.splice(this.children.indexOf(c), 1); return c; };
Object.defineProperty(El.prototype, 'firstChild', { get() { return this.children[0] || null; } });
Object.defineProperty(El.prototype, 'textContent', {
  get() { return this.text; },
  set(v) { this.text = String(v); shown.push(this.text); }
});
El.prototype.setAttribute = function (k, v) { this.attrs[k] = String(v); };
El.prototype.addEventListener = function () {};
El.prototype.getBoundingClientRect = function () { return { left: 0, width: 1200 }; };
const byId = { 'godeye-data': { textContent: data } };
['errors', 'sub', 'content', 'search'].forEach(function (id) { byId[id] = new El('div'); });
global.document = {
  getElementById: function (id) { return byId[id] || null; },
  createElement: function (t) { return new El(t); },
  createElementNS: function (ns, t) { return new El(t); },
  createTextNode: function (t) { shown.push(String(t)); return new El('#text'); },
  querySelectorAll: function () { return []; },
  body: { dataset: {} }
};
const errors = [];
global.window = { addEventListener: function (type, fn) { if (type === 'error') global.onPageError = fn; } };
try {
  new Function(code)();
} catch (e) {
  errors.push(String(e && e.stack || e));
}
shown.forEach(function (t) { console.log(t.replace(/\n/g, ' ')); });
errors.forEach(function (e) { console.log('error: ' + e); });
console.log('errors: ' + errors.length);
