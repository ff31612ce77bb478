// Adjudication and correction: the organizer ends a stuck or disputed table with a
// result and a reason, or corrects a finished table's result with a reason. Each is
// first an event in the game's own log (`GameAdjudicated`, through the command path as
// the system, src/domain/lifecycle.ts), then in the tournament's: the adjudicated table
// is recorded as any finished table (`TableFinished` with `adjudicated`), a correction
// is `TableCorrected`, with the standings after it and the organizer's ratings folded
// again. A retry after a failure between the two logs finds the game's part done and
// does the tournament's.
import type { CommandHandler } from '../commands/command-handler.ts';
import type { Ending } from '../domain/lifecycle.ts';
import { ServiceError, serviceCodes } from '../errors.ts';
import type { LatestStates } from '../state/latest-states.ts';
import { evolve, type TournamentState } from './log.ts';
import { refoldRatings } from './ratings.ts';
import { tableOf, tableResult } from './tables.ts';
import type { OrganizerId, Tournaments } from './tournaments.ts';

export interface Verdict {
  /** Rank per seat, 1 = first. */
  readonly ranks: readonly number[];
  /** Score per seat; absent: 0 each when ending a table, the scores it had when correcting one. */
  readonly scores?: readonly number[];
  readonly reason: string;
}

export class Adjudications {
  constructor(
    private readonly tournaments: Tournaments,
    private readonly commands: CommandHandler,
    private readonly latest: LatestStates,
  ) {}

  /** Ends a table still playing with `verdict`; the tournament records it at once. */
  async adjudicate(organizerId: OrganizerId, id: string, gameId: string, verdict: Verdict, idempotencyKey?: string) {
    const state = await this.tournaments.state(id, organizerId);
    const { round } = tableOf(state, gameId);
    if (state.results.has(gameId)) throw new ServiceError(serviceCodes.tableFinished, `the table ${gameId} is over: correct its result instead`);
    const scores = verdict.scores ?? verdict.ranks.map(() => 0);
    try {
      await this.commands.handle({ gameId, caller: { kind: 'system' }, command: null, adjudicate: { organizerId: state.organizerId, mode: 'end', ranks: verdict.ranks, scores, reason: verdict.reason }, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) });
    } catch (error) {
      // It ended by itself meanwhile: its own result stands, to be corrected if need be.
      if (error instanceof ServiceError && error.code === serviceCodes.notRunning) throw new ServiceError(serviceCodes.tableFinished, `the table ${gameId} is over: correct its result instead`);
      throw error;
    }
    await this.tournaments.record(organizerId, id, gameId);
    const after = await this.tournaments.state(id);
    return { gameId, round, result: after.results.get(gameId)!, reason: verdict.reason };
  }

  /** Corrects a finished table's result; standings and ratings follow. A knockout's
   * table is corrected only while its next round is not paired (who went on depends on it). */
  async correct(organizerId: OrganizerId, id: string, gameId: string, verdict: Verdict, idempotencyKey?: string) {
    const state = await this.tournaments.state(id, organizerId);
    const { round } = tableOf(state, gameId);
    const previous = state.results.get(gameId);
    if (previous === undefined) throw new ServiceError(serviceCodes.tableRunning, `the table ${gameId} is still playing: adjudicate it instead`);
    if (state.format.kind === 'knockout' && state.rounds.length > round) throw new ServiceError(serviceCodes.roundAlreadyPaired, `round ${round + 1} was paired on this table's result: a knockout table is corrected before the next round`);
    const scores = verdict.scores ?? previous.scores;
    const loaded = await this.latest.load(gameId);
    const ending = loaded.game.ending?.(loaded.state) as Ending | null | undefined;
    const done = ending?.kind === 'adjudicated' && ending.correction && ending.reason === verdict.reason && same(ending.ranks, verdict.ranks) && same(ending.scores, scores);
    if (!done) {
      await this.commands.handle({ gameId, caller: { kind: 'system' }, command: null, adjudicate: { organizerId: state.organizerId, mode: 'correct', ranks: verdict.ranks, scores, reason: verdict.reason } });
    }
    return this.tournaments.run(id, organizerId, { correct: gameId, ranks: verdict.ranks, scores, reason: verdict.reason }, idempotencyKey, (current: TournamentState) => {
      const before = current.results.get(gameId)!;
      const { table } = tableOf(current, gameId);
      const result = tableResult(current, gameId, round, table, { ranks: verdict.ranks, scores });
      const answer = { gameId, round, result, previous: before, reason: verdict.reason };
      if (current.adjudicated.get(gameId) === verdict.reason && same(before.ranks, result.ranks) && same(before.scores, result.scores)) return { events: [], answer };
      const corrected = evolve(current, { type: 'TableCorrected', round, gameId, result, previous: before, reason: verdict.reason });
      return {
        events: [
          { type: 'TableCorrected', round, gameId, result, previous: before, reason: verdict.reason },
          { type: 'StandingsChanged', round: current.rounds.length, standings: this.tournaments.standingsOf(corrected) },
        ],
        answer,
        extra: current.settings.rated ? { within: (client) => refoldRatings(this.tournaments.store, client, corrected, (other) => this.tournaments.state(other), new Date(this.tournaments.clock())) } : undefined,
      };
    });
  }
}

const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);
