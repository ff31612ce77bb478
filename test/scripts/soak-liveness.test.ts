// `npm run soak:liveness` in small: bot games of all four types and tournaments with a
// no-show and a mid-game withdrawal each, on two instances of the service, and no game
// waits on the server (a bot's move, a passed deadline) longer than 5 s, though one in
// fifty of the bots' wake-ups is lost on purpose: the sweeper moves those games on.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';

const run = promisify(execFile);

t.test('a small liveness soak: no stall, takeovers and withdrawals included', async (t) => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/soak-liveness.ts', '--games', '16', '--tournaments', '4', '--parallel', '8', '--drop-wakeups', '0.02', '--stall-ms', '500'], { timeout: 120_000 });
  const report = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, any>;
  t.equal(report.instances, 2, 'on two instances');
  t.match(report.games, { started: 16, finished: 16 }, 'every game finished');
  t.ok(report.games.withPerson > 0 && report.games.allBots > 0, 'tables of bots, and tables with a person');
  t.ok(report.games.resigned + report.games.silent > 0, 'people resigned or went silent mid-game');
  t.match(report.tournaments, { started: 4, finished: 4 }, 'every tournament finished');
  t.ok(report.tournaments.noShowTakeovers > 0, 'no-shows were taken over by bots');
  t.ok(report.tournaments.withdrawTakeovers > 0, 'withdrawn players were taken over mid-game');
  t.ok(report.waitsOnServer > 100, `the waits on the server were measured (${report.waitsOnServer})`);
  t.ok(report.droppedWakeups > 0, `wake-ups were lost (${report.droppedWakeups})`);
  t.ok(report.sweeperInterventions.bot > 0, `the sweeper moved those games on (${report.sweeperInterventions.bot})`);
  t.equal(report.stallsOver5s, 0, 'no game waited on the server over 5 s');
  t.ok(report.maxWaitMs < 5000, `the longest wait: ${report.maxWaitMs} ms`);
  t.equal(report.errors, 0, JSON.stringify(report.firstErrors));
});
