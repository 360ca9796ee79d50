// sdk_client.mjs - drives `godeye mcp` with the official MCP SDK's client
// (stdio transport) on a database of examples/ (#49): initialize, every
// tool's schemas compiled, every tool called and its rows compared with
// the command run directly, a malformed call, a capped answer, `sql`
// refusing a write, the trace resources, `ingest` held to its folder.
//   node tests/mcp/sdk_client.mjs --bin BUILD/cli --examples examples
// Exit 77 (skipped) when the SDK is not installed (scripts/test.sh runs
// npm ci in tests/mcp).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
let Client, StdioClientTransport, Ajv2020;
try {
  ({ Client } = await import('@modelcontextprotocol/sdk/client/index.js'));
  ({ StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js'));
  Ajv2020 = (await import('ajv/dist/2020.js')).default;
} catch (e) {
  console.log(`skipped: the MCP SDK is not installed in ${here}/node_modules (cd tests/mcp && npm ci)`);
  process.exit(77);
}

const arg = (name) => process.argv[process.argv.indexOf(name) + 1];
const godeye = path.join(arg('--bin'), 'godeye');
const examples = path.resolve(arg('--examples'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'godeye-mcp-'));
const db = path.join(tmp, 'ex.db');
// as scripts/quickstart.sh: examples/*.jsonl then examples/*.txt (traces 1 to 6)
const glob = (ext) => fs.readdirSync(examples).filter((f) => f.endsWith(ext)).sort().map((f) => path.join(examples, f));
const inputs = [...glob('.jsonl'), ...glob('.txt')];
execFileSync(godeye, ['--db', db, 'ingest', '-q', ...inputs]);
const cli = (...a) => {
  try {
    return JSON.parse(execFileSync(godeye, ['--db', db, ...a, '--format', 'json'], { stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch (e) {
    return JSON.parse(e.stdout); // check exits 3 on a broken rule, its rows printed
  }
};

let passed = 0, failed = 0;
async function step(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok - ${name}`);
  } catch (e) {
    failed++;
    console.log(`not ok - ${name}\n  ${String(e.stack || e).split('\n').join('\n  ')}`);
  }
}

async function connect(extra = [], dbPath = db) {
  const transport = new StdioClientTransport({ command: godeye, args: ['--db', dbPath, 'mcp', ...extra], stderr: 'pipe' });
  const client = new Client({ name: 'godeye-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const client = await connect(['--max-rows', '20']);
const budget = path.join(tmp, 'budget.json');
fs.writeFileSync(budget, JSON.stringify({ max: { anr_count: 2, user_perceived_anr_count: 0 } }));

await step('initialize: server, version, capabilities', async () => {
  assert.equal(client.getServerVersion().name, 'godeye');
  assert.ok(client.getServerCapabilities().tools);
  assert.ok(client.getServerCapabilities().resources);
  assert.match(client.getInstructions(), /top/);
});

const { tools } = await client.listTools();
const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
await step('tools/list: the tools the issue names, every schema compiles', async () => {
  for (const n of ['top', 'anr', 'blocks', 'blocks_group', 'threads', 'frames', 'startup', 'methods', 'issues',
                   'traces', 'diff', 'check', 'sql'])
    assert.ok(byName[n], `tool ${n}`);
  assert.equal(byName.ingest, undefined, 'read-only by default');
  const ajv = new Ajv2020({ strict: true });
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object', t.name);
    ajv.compile(t.inputSchema);
    assert.equal(t.outputSchema.type, 'object', t.name);
    ajv.compile(t.outputSchema);
    assert.ok(!('format' in t.inputSchema.properties), `${t.name} sets --format itself`);
  }
  assert.deepEqual(byName.diff.inputSchema.required, ['base', 'head']);
  assert.deepEqual(byName.sql.inputSchema.required, ['query']);
  assert.deepEqual(byName.blocks.inputSchema.properties.kind.enum, ['short', 'long', 'anr']);
  assert.equal(byName.top.inputSchema.properties.limit.type, 'integer');
  assert.equal(byName.blocks.inputSchema.properties.trace.type, 'array');
  assert.equal(byName.blocks.outputSchema.properties.rows.items.properties.duration_ms.type[0], 'number');
});

// each tool, its arguments and the same command on the command line
const calls = [
  ['top', {}, ['top']],
  ['anr', {}, ['anr']],
  ['anr', { group: true }, ['anr', '--group']],
  ['anr', { id: 1 }, ['anr', '--id', '1']],
  ['blocks', { threshold: 100 }, ['blocks', '--threshold', '100']],
  ['blocks_group', {}, ['blocks', '--group']],
  ['threads', {}, ['threads']],
  ['frames', {}, ['frames']],
  ['startup', {}, ['startup']],
  ['methods', {}, ['methods']],
  ['issues', {}, ['issues']],
  ['traces', { trace: [1, 2] }, ['traces', '--trace', '1', '--trace', '2']],
  ['diff', { base: 'version=4.11.0', head: 'version=4.12.0' }, ['diff', 'version=4.11.0', 'version=4.12.0']],
  ['check', { budget }, ['check', '--budget', budget]],
  ['sql', { query: 'select id, format from trace order by id' }, ['sql', 'select id, format from trace order by id']],
  ['explain', { top: 1 }, ['explain', '--top', '1']],
];
for (const [name, args, argv] of calls) {
  await step(`tools/call ${name} ${JSON.stringify(args)}: the command's rows`, async () => {
    const r = await client.callTool({ name, arguments: args }); // the SDK checks it against outputSchema
    assert.equal(r.isError, false, r.content?.[0]?.text);
    const want = cli(...argv);
    const sc = r.structuredContent;
    assert.equal(sc.total, want.length);
    assert.equal(sc.rows.length, Math.min(want.length, 20));
    assert.equal(sc.more, want.length - sc.rows.length);
    assert.deepEqual(sc.rows, want.slice(0, sc.rows.length));
    assert.match(r.content[0].text, new RegExp(`^\\$ godeye ${argv[0]}`));
  });
}

await step('every tool was called', async () => {
  const called = new Set(calls.map((c) => c[0]));
  assert.deepEqual(tools.map((t) => t.name).filter((n) => !called.has(n)).sort(), ['images', 'overdraw', 'pages']);
  for (const n of ['images', 'overdraw', 'pages']) {
    const r = await client.callTool({ name: n, arguments: {} });
    assert.equal(r.isError, false);
    assert.equal(r.structuredContent.total, cli(n).length);
  }
});

await step('top: the examples rank the ANR of trace 1 first', async () => {
  const r = await client.callTool({ name: 'top', arguments: { limit: 3 } });
  assert.equal(r.structuredContent.rows.length, 3);
  assert.equal(r.structuredContent.rows[0].kind, 'anr');
  assert.equal(r.structuredContent.rows[0].trace, 1);
});

await step('a malformed call: unknown tool is a JSON-RPC error, a wrong argument a tool error', async () => {
  await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), (e) => e.code === -32602);
  const bad = await client.callTool({ name: 'top', arguments: { limit: 'ten' } });
  assert.equal(bad.isError, true);
  assert.equal(bad.content[0].text, "godeye top: argument 'limit' wants an integer");
  const unknown = await client.callTool({ name: 'blocks', arguments: { nosuch: 1 } });
  assert.equal(unknown.isError, true);
  assert.match(unknown.content[0].text, /unknown argument 'nosuch'/);
  const usage = await client.callTool({ name: 'top', arguments: { limit: 999 } });
  assert.equal(usage.isError, true);
  assert.equal(usage.content[0].text, 'godeye top: --limit wants 1 to 50, not 999');
  const missing = await client.callTool({ name: 'anr', arguments: { trace: [99] } });
  assert.equal(missing.isError, true);
  assert.equal(missing.content[0].text, 'godeye anr: no trace 99');
});

await step('an oversized answer is capped: rows, and bytes', async () => {
  const all = cli('blocks', '--threshold', '0').length;
  assert.ok(all > 600, `${all} blocks`);
  const r = await client.callTool({ name: 'blocks', arguments: { threshold: 0 } });
  assert.equal(r.structuredContent.rows.length, 20);
  assert.equal(r.structuredContent.total, all);
  assert.equal(r.structuredContent.more, all - 20);
  assert.ok(r.content[0].text.includes(`${all - 20} more rows not shown: narrow with limit, trace, app, kind or threshold`));
  const small = await connect(['--max-bytes', '2048']);
  const s = await small.callTool({ name: 'blocks', arguments: { threshold: 0 } });
  const bytes = s.structuredContent.rows.reduce((n, row) => n + JSON.stringify(row).length, 0);
  assert.ok(s.structuredContent.rows.length >= 1 && bytes <= 2048, `${s.structuredContent.rows.length} rows, ${bytes} bytes`);
  assert.equal(s.structuredContent.total, all);
  await small.close();
});

await step('sql trying to write is refused, the database unchanged', async () => {
  for (const q of ['delete from trace', 'drop table trace', "attach database '/tmp/x.db' as x", 'pragma user_version = 3']) {
    const r = await client.callTool({ name: 'sql', arguments: { query: q } });
    assert.equal(r.isError, true, q);
    assert.match(r.content[0].text, /^godeye sql: /, q);
  }
  assert.equal(cli('traces').length, 6);
});

await step('resources: one per trace, each its summary', async () => {
  const { resources } = await client.listResources();
  assert.deepEqual(resources.map((r) => r.uri), [1, 2, 3, 4, 5, 6].map((n) => `godeye://trace/${n}`));
  const { contents } = await client.readResource({ uri: 'godeye://trace/4' });
  const doc = JSON.parse(contents[0].text);
  assert.equal(doc.trace.trace, 4);
  assert.equal(doc.trace.format, 'anr');
  assert.deepEqual(doc.trace, cli('traces', '--trace', '4')[0]);
  await assert.rejects(client.readResource({ uri: 'godeye://trace/99' }), (e) => e.code === -32002);
});

await step('--allow-ingest DIR: an ingest tool held to DIR', async () => {
  const db2 = path.join(tmp, 'ingest.db');
  const w = await connect(['--allow-ingest', examples], db2);
  const t = (await w.listTools()).tools.find((x) => x.name === 'ingest');
  assert.ok(t);
  const ok = await w.callTool({ name: 'ingest', arguments: { paths: ['shop-anr.txt'] } });
  assert.equal(ok.isError, false, ok.content[0].text);
  const out = await w.callTool({ name: 'ingest', arguments: { paths: ['/etc/hostname'] } });
  assert.equal(out.isError, true);
  assert.match(out.content[0].text, /is not under/);
  const up = await w.callTool({ name: 'ingest', arguments: { paths: ['../README.md'] } });
  assert.equal(up.isError, true);
  const traces = await w.callTool({ name: 'traces', arguments: {} });
  assert.equal(traces.structuredContent.total, 1);
  assert.equal(traces.structuredContent.rows[0].format, 'anr');
  await w.close();
});

await client.close();
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
