// Test-made dagu_read answers, in the contract's shapes, for what the
// demo's recordings do not show: a run whose steps take minutes and run in
// parallel, a run of 2,000 steps, unknown statuses and missing fields, a
// 20 MB log window the gateway cut, a live run that ends. The view's own
// reads of these DAGs are answered here too (answer()); every other read
// goes to the gateway.

const references = ['dagu://reference/authoring', 'dagu://reference/tools', 'dagu://reference/notifications'];

/** A successful dagu_read result of target with data, as the gateway shapes it. */
export function result(target, data, extra = {}, ttlMs) {
  const sc = { target, ...extra, data, references };
  const out = { content: [{ type: 'text', text: 'Dagu read completed.' }], structuredContent: sc };
  if (extra.uri) out.content.push({ type: 'resource_link', uri: extra.uri, name: target, mimeType: 'application/json' });
  if (ttlMs !== undefined) out.ttlMs = ttlMs;
  return out;
}

const at = (base, seconds) => new Date(Date.parse(base) + seconds * 1000).toISOString();

// ---- a nightly ETL run: extract, three transforms in parallel, load ------
const etlStart = '2026-11-30T02:00:00.000Z';
const etlRun = 'dagu://runs/etl_fanout/20261130T020000Z';
const etlStep = (name, status, statusLabel, from, to, more = {}) => ({
  name, status, statusLabel, logUri: `${etlRun}/steps/${name}/logs`,
  ...(from == null ? {} : { startedAt: at(etlStart, from) }), ...(to == null ? {} : { finishedAt: at(etlStart, to) }), ...more,
});

/** Step name -> [start s, end s] of the ETL run, for the timeline's proportions. */
export const etlTimes = {
  extract: [0, 40], transform_orders: [40, 160], transform_users: [40, 100], transform_events: [40, 220], notify: [221, 223],
};

export const etl = {
  args: { target: 'run', name: 'etl_fanout', dagRunId: 'latest' },
  result: result('run', {
    name: 'etl_fanout', dagRunId: '20261130T020000Z', uri: etlRun, logsUri: `${etlRun}/logs`, attemptId: 'a1', status: 2, statusLabel: 'failed',
    startedAt: etlStart, finishedAt: at(etlStart, 223),
    steps: [
      etlStep('extract', 4, 'succeeded', 0, 40),
      etlStep('transform_orders', 4, 'succeeded', 40, 160),
      etlStep('transform_users', 4, 'succeeded', 40, 100),
      etlStep('transform_events', 2, 'failed', 40, 220, { error: 'exit status 2\nrecent stderr (tail):\nERROR schema mismatch in events.parquet\n' }),
      etlStep('load', 0, 'not_started'),
    ],
    handlers: [etlStep('notify', 4, 'succeeded', 221, 223, { handler: 'onFailure' })],
    humanTaskResumePending: false, labels: ['nightly'], triggerType: 'scheduler',
  }, { uri: 'dagu://runs/etl_fanout/latest' }),
  spec: [
    'description: Nightly extract, three transforms in parallel, then load',
    'schedule: "0 2 * * *"',
    'steps:',
    '  - name: extract',
    '    run: ./extract.sh',
    '  - name: transform_orders',
    '    run: ./transform.sh orders',
    '    depends: [extract]',
    '  - name: transform_users',
    '    run: ./transform.sh users',
    '    depends:',
    '      - extract',
    '  - name: transform_events',
    '    run: |',
    '      ./transform.sh events',
    '      depends: not-a-key-of-the-step',
    '    depends: extract',
    '  - name: load',
    '    run: ./load.sh',
    '    depends: [transform_orders, transform_users, "transform_events"]',
    'handlerOn:',
    '  failure:',
    '    run: ./notify.sh',
    '',
  ].join('\n'),
  /** The edges the graph must draw, from -> to. */
  edges: [['extract', 'transform_orders'], ['extract', 'transform_users'], ['extract', 'transform_events'],
    ['transform_orders', 'load'], ['transform_users', 'load'], ['transform_events', 'load']],
};

const eventsStdout = ['INFO reading events.parquet', 'INFO 1,204,332 rows', 'WARN column ts has 12 nulls', 'INFO writing staging.events'];
const eventsStderr = ['ERROR schema mismatch in events.parquet', 'expected ts: timestamp, got ts: string'];

// ---- one logical answerer for the test-made DAGs ---------------------------
/**
 * Answers the view's tools/call for the test-made DAGs, or undefined for
 * calls that go to the gateway.
 */
export function answer(params) {
  const a = params?.arguments || {};
  const uri = typeof a.uri === 'string' ? a.uri : '';
  if (a.target === 'dag_spec' && a.name === 'etl_fanout') {
    return result('dag_spec', { name: 'etl_fanout', mimeType: 'application/yaml', spec: etl.spec, errors: [] }, { uri: 'dagu://dags/etl_fanout/spec' });
  }
  if (uri.startsWith(`${etlRun}/steps/transform_events/logs`)) {
    return result('step_log', { dagRunId: '20261130T020000Z', stdoutContent: eventsStdout.join('\n'), stderrContent: eventsStderr.join('\n'),
      lineCount: eventsStdout.length, totalLines: eventsStdout.length, hasMore: false, stream: 'stdout' },
    { uri, name: 'etl_fanout', dagRunId: '20261130T020000Z', stepName: 'transform_events' });
  }
  if (a.target === 'dag_spec' && (a.name === 'fanout_2000' || a.name === 'live_job')) {
    return { isError: true, content: [{ type: 'text', text: 'not recorded' }], structuredContent: { code: 'resource_not_found', message: `The DAG ${a.name} does not exist.`, field: 'name' } };
  }
  if (uri.startsWith(bigLogUri)) return bigLogWindow(uri);
  return undefined;
}

/**
 * Answers the view's resources/read of the test-made live run (a poll), or
 * undefined for reads that go to the gateway.
 */
export function answerResource(params) {
  if (params?.uri !== liveUri) return undefined;
  const r = live.next();
  return { contents: [{ uri: liveUri, mimeType: 'application/json', text: JSON.stringify(r.structuredContent.data) }],
    ttlMs: live.ttlMs, cacheScope: 'private' };
}

// ---- 2,000 steps -----------------------------------------------------------
export const huge = (() => {
  const start = '2026-11-30T03:00:00.000Z';
  const labels = [[4, 'succeeded'], [4, 'succeeded'], [4, 'succeeded'], [5, 'skipped'], [2, 'failed']];
  const steps = Array.from({ length: 2000 }, (_, i) => {
    const [status, statusLabel] = labels[i % labels.length];
    return { name: `shard_${String(i).padStart(4, '0')}`, status, statusLabel, logUri: `dagu://runs/fanout_2000/r1/steps/shard_${i}/logs`,
      startedAt: at(start, i), finishedAt: at(start, i + 3) };
  });
  return {
    args: { target: 'run', name: 'fanout_2000', dagRunId: 'r1' },
    result: result('run', { name: 'fanout_2000', dagRunId: 'r1', uri: 'dagu://runs/fanout_2000/r1', status: 2, statusLabel: 'failed',
      startedAt: start, finishedAt: at(start, 2003), steps, humanTaskResumePending: false }, { uri: 'dagu://runs/fanout_2000/r1' }),
  };
})();

// ---- unknown statuses and missing fields -------------------------------------
export const odd = {
  args: { target: 'run', name: 'odd_job', dagRunId: 'r9' },
  result: result('run', {
    dagRunId: 'r9', status: 42, statusLabel: 'teleported',
    steps: [
      { status: 4 },
      { name: 'beam_up', status: 99, statusLabel: 'teleported', startedAt: 'yesterday' },
      null,
      'not a step',
      { name: 'fine', status: 4, statusLabel: 'succeeded', startedAt: '2026-11-30T04:00:00Z', finishedAt: '2026-11-30T04:00:05Z' },
    ],
  }, { uri: 'dagu://runs/odd_job/r9' }),
};

// ---- a 20 MB window the gateway cut to 4 MiB -------------------------------------
const bigLogUri = 'dagu://runs/huge_log_job/r2/steps/dump/logs';
const bigTotal = 50000;
const bigLine = (n) => {
  const level = n % 997 === 0 ? 'ERROR' : n % 101 === 0 ? 'WARN' : 'INFO';
  return `${level} record ${n} ${'x'.repeat(380)}`;
};
const bigLines = (from, count) => Array.from({ length: count }, (_, i) => bigLine(from + i)).join('\n');
export const bigLog = {
  args: { uri: `${bigLogUri}?tail=10000` },
  result: result('step_log', {
    dagRunId: 'r2', stdoutContent: bigLines(bigTotal - 10000 + 1, 10000), stderrContent: '', lineCount: 10000, totalLines: bigTotal, hasMore: true,
    stream: 'stdout', cut: { leftOutLines: 40000, query: 'tail=10000',
      note: 'Cut on whole lines to stay within this gateway\'s answer size of 4194304 bytes: left out the 40000 oldest lines of the window. Read with query "tail=10000" to see such a window whole.' },
  }, { uri: `${bigLogUri}?tail=10000`, name: 'huge_log_job', dagRunId: 'r2', stepName: 'dump' }),
  firstLine: bigTotal - 10000 + 1,
};
function bigLogWindow(uri) {
  const q = new URLSearchParams(uri.split('?')[1] || '');
  const offset = Number(q.get('offset')), limit = Number(q.get('limit'));
  return result('step_log', { dagRunId: 'r2', stdoutContent: bigLines(offset, limit), stderrContent: '', lineCount: limit, totalLines: bigTotal,
    hasMore: true, stream: q.get('stream') || 'stdout' }, { uri, name: 'huge_log_job', dagRunId: 'r2', stepName: 'dump' });
}

// ---- a live run that ends on its third read ----------------------------------------
const liveUri = 'dagu://runs/live_job/r3';
const liveData = (done) => ({
  name: 'live_job', dagRunId: 'r3', uri: liveUri, status: done ? 4 : 1, statusLabel: done ? 'succeeded' : 'running',
  startedAt: '2026-11-30T05:00:00Z', ...(done ? { finishedAt: '2026-11-30T05:01:00Z' } : {}),
  steps: [{ name: 'work', status: done ? 4 : 1, statusLabel: done ? 'succeeded' : 'running', logUri: `${liveUri}/steps/work/logs`,
    startedAt: '2026-11-30T05:00:00Z', ...(done ? { finishedAt: '2026-11-30T05:01:00Z' } : {}) }],
  humanTaskResumePending: false,
});
export const live = {
  args: { target: 'run', name: 'live_job', dagRunId: 'r3' },
  reads: 0,
  /** ttlMs is the resources/read answers' cache hint: the view polls at it (2 s at least). */
  ttlMs: 3000,
  /** The agent's tool result, which carries no cache hint: the view's first poll is 5 s away. */
  first() { this.reads = 0; return result('run', liveData(false), { uri: liveUri }); },
  next() { this.reads++; return result('run', liveData(this.reads >= 2), { uri: liveUri }, this.ttlMs); },
};
