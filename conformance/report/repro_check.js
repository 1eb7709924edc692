const outcome = JSON.parse(globalThis.__holdemDriver(FAMILY, INPUT));

// The decision state k with its history put back (the driver records each history once).
function decision(k) {
  const s = (outcome.decisions || [])[k];
  if (s === null || typeof s !== 'object' || !outcome.histories) return s;
  const h = outcome.histories.filter(x => x.decision <= k).pop();
  return h && h.present ? Object.assign({}, s, { history: h.history }) : s;
}
// The engine's value at a divergence path of the step judge (docs/INTERPRETING.md, Step judging).
function locate(path, at) {
  const k = at === null ? null : at - OFFSET;
  const head = /^(state\(\)|state|again|action|history\(\)|log\(\)|standings\(\)|result\(\)|over|error|steps)/.exec(path);
  let root, rest = path.slice(head ? head[1].length : 0);
  switch (head && head[1]) {
    case 'state': case 'state()': root = k !== null && k < (outcome.decisions || []).length ? decision(k) : outcome.error || null; break;
    case 'again': root = outcome.again ? outcome.again[k] : ((outcome.fresh || []).find(f => f.decision === k) || {}).state; break;
    case 'action': root = (outcome.actions || [])[k]; if (root === undefined) root = outcome.error; break;
    case 'history()': root = outcome.history; break;
    case 'log()': root = outcome.log; break;
    case 'standings()': root = outcome.standings; break;
    case 'result()': root = outcome.result; break;  // a lone hand's result (the hand family)
    case 'over': root = outcome.over; break;
    case 'steps': root = outcome.steps; break;
    default: root = outcome.error;
  }
  for (const m of rest.matchAll(/\.([^.\[]+)|\[(\d+)\]/g)) {
    if (root === null || typeof root !== 'object') return '(missing)';
    root = m[2] !== undefined ? root[Number(m[2])] : root[m[1]];
    if (root === undefined) return '(missing)';
  }
  return root === undefined ? '(missing)' : root;
}
const show = v => JSON.stringify(v);
if (FIRST === null) {  // not a game: the whole outcome is compared (the failure says how it differs)
  console.log('expected (reference): ' + show(EXPECTED).slice(0, 4000));
  console.log('actual (this engine): ' + show(outcome).slice(0, 4000));
} else {
  const actual = locate(FIRST.path, FIRST.decision);
  const where = [FIRST.hand !== null ? 'hand ' + FIRST.hand : null, FIRST.decision !== null ? 'decision ' + FIRST.decision : null]
    .filter(Boolean).join(', ') || 'the end of the game';
  console.log('first divergence at ' + where + ': ' + FIRST.path + ' (breaks ' + FIRST.clause + ')');
  console.log('  expected (reference): ' + show(FIRST.expected));
  console.log('  actual (this engine): ' + show(actual));
  const diverges = show(actual) !== show(FIRST.expected);
  console.log(diverges ? 'DIVERGES: the engine still leaves the rules here' : 'the same now: this step no longer diverges');
  if (diverges && typeof process === 'object') process.exitCode = 1;
  if (diverges) globalThis.__reproDiverges = true;
}
