const outcome = JSON.parse(globalThis.__holdemDriver(FAMILY, INPUT));

// The decision state k with its history put back (the driver records each history once; a state
// recorded whole keeps its own, as trajectory.expand does).
function decision(k) {
  const s = (outcome.decisions || [])[k];
  if (s === null || typeof s !== 'object' || !outcome.histories || 'history' in s) return s;
  const h = outcome.histories.filter(x => x.decision <= k).pop();
  return h && h.present !== false ? Object.assign({}, s, { history: h.history }) : s;
}
// The engine's value at a divergence path of the step judge (docs/INTERPRETING.md, Step judging).
function locate(path, at) {
  const k = at === null ? null : at - OFFSET;
  const head = /^(state\(\)|stateAfter|state|again|action|act|submit|history\(\)|log\(\)|standings\(\)|result\(\)|over|error|steps)/.exec(path);
  let root, rest = path.slice(head ? head[1].length : 0);
  const inPrefix = FAMILY === 'legality' && k !== null && k < INPUT.prefix.length;
  if (inPrefix && head && ['state', 'action'].includes(head[1])) {
    // a difference in the prefix, judged as a game's decisions (the driver's `prefix`; or the
    // state a refused prefix answer was given in, `prefixState`)
    const p = outcome.prefix || { decisions: [], actions: [] }, refused = outcome.prefixState;
    root = head[1] === 'action' ? p.actions[k] : p.decisions[k];
    if (root === undefined) root = head[1] === 'state' && refused && refused.at === k ? refused.state : outcome.error;
  } else if (FAMILY === 'legality' && head && ['state', 'act', 'submit', 'stateAfter'].includes(head[1])) {
    root = outcome[head[1]];  // one state, one act, one submit: not a game's decisions
  } else switch (head && head[1]) {
    case 'state': case 'state()': root = k !== null && k < (outcome.decisions || []).length ? decision(k) : outcome.error || null; break;
    case 'again': {  // a game records only a second state() that differs from the first: else it is the first
      const f = (outcome.fresh || []).find(x => x.decision === k);
      root = outcome.again ? outcome.again[k] : f ? f.state : decision(k);
      break;
    }
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
const same = (a, b) => show(a) === show(b);
// Not a game: the outcome judged as the family's judge does (conformance/judge/family_judges.py):
// a reason it still differs, or null.
function outcomeDiffers(o, e) {
  if (o === null || typeof o !== 'object') return 'no outcome';
  if (o.skipped) return 'skipped: ' + o.skipped;
  // any refusal passes: a helper's throw, or a game or hand whose create call threw (R38)
  const created = o.error !== null && typeof o.error === 'object' && (o.error.at === 'create' || o.error.at === 'createHand');
  if ('error' in e) return o.threw || created ? null : 'returned where a refusal (throw) is due';
  if (o.threw) return 'threw ' + show(o.threw);
  if (FAMILY === 'equity') {
    if (typeof o.equity !== 'number' || !isFinite(o.equity)) return 'not a finite number';
    if ('value' in e && o.equity === e.value) return null;
    const off = Math.abs(o.equity - e.equity);
    return off <= e.tolerance ? null : off.toFixed(6) + ' from the equity, beyond the tolerance ' + e.tolerance;
  }
  if (FAMILY === 'evaluate') {
    if ('order' in e) {
      const a = (o.a || {}).value, b = (o.b || {}).value;
      return Math.sign(a - b) === e.order ? null : 'sign(value(a) - value(b)) is not ' + e.order;
    }
    const r = 'result' in o ? o.result : o;  // a digest's fields are the outcome's own
    const bad = Object.keys(e).filter(key => !same((r || {})[key], e[key]));
    return bad.length ? 'differs at ' + bad.join(', ') : null;
  }
  const bad = Object.keys(e).filter(key => !same(o[key], e[key]));
  return bad.length ? 'differs at ' + bad.join(', ') : null;
}
if (FIRST === null) {  // not a game: the whole outcome is compared (the failure says how it differs)
  console.log('expected (reference): ' + show(EXPECTED).slice(0, 4000));
  console.log('actual (this engine): ' + show(outcome).slice(0, 4000));
  const why = outcomeDiffers(outcome, EXPECTED);
  console.log(why ? 'DIVERGES: ' + why : 'the same now: the outcome no longer diverges');
  if (why && typeof process === 'object') process.exitCode = 1;
  if (why) globalThis.__reproDiverges = true;
} else {
  const actual = locate(FIRST.path, FIRST.decision);
  // a second state() is judged against this engine's own first one at that decision (state.fresh)
  const second = /^again\b/.test(FIRST.path);
  const expected = second ? locate(FIRST.path.replace(/^again/, 'state'), FIRST.decision) : FIRST.expected;
  const where = [FIRST.hand !== null ? 'hand ' + FIRST.hand : null, FIRST.decision !== null ? 'decision ' + FIRST.decision : null]
    .filter(Boolean).join(', ') || 'the end of the game';
  console.log('first divergence at ' + where + ': ' + FIRST.path + ' (breaks ' + FIRST.clause + ')');
  console.log(second ? '  expected (its first state() here): ' + show(expected) : '  expected (reference): ' + show(expected));
  console.log('  actual (this engine): ' + show(actual));
  // an entry the reference does not have ("(absent)") is what an engine without it shows ("(missing)")
  // and where a refusal is due ("throws"), any refusal is one (docs/INTERPRETING.md, Refusals)
  const refused = expected === 'throws' && actual !== null && typeof actual === 'object' && 'threw' in actual;
  const diverges = !same(actual, expected) && !refused && !(actual === '(missing)' && expected === '(absent)');
  console.log(diverges ? 'DIVERGES: the engine still leaves the rules here' : 'the same now: this step no longer diverges');
  if (diverges && typeof process === 'object') process.exitCode = 1;
  if (diverges) globalThis.__reproDiverges = true;
}
