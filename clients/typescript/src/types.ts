// The names a client needs to talk about games without spelling out schema paths, each
// by game type (looked up in the generated `games`): `CommandOf<'mistkaefer'>`, `ViewOf<'porca-miseria'>`. They stay
// generic where the game type is (a `LiveGame<T>`): a `CommandAnswerOf<T>`'s
// `legalCommands` are `CommandOf<T>[]` for any `T`, and for the union of all types
// the answers are told apart by `gameType`.
import type { components, games, paths } from './api.js';

export type { components, paths };
export type Schemas = components['schemas'];
export type GameType = Schemas['GameSummary']['type'];
export type Problem = Schemas['Problem'];

/** A command a seat of a game of type `T` may send, as `legalCommands` lists them (one
 * type for both, so that a legal command is sent as it is, also in generic code). */
export type CommandOf<T extends GameType> = games[T]['command'];
/** A game of type `T` as someone sees it. */
export type ViewOf<T extends GameType> = games[T]['view'];
export type EventOf<T extends GameType> = games[T]['event'];
/** `GET /games/{id}` of a game of type `T`. */
export type GameDetailsOf<T extends GameType> = games[T]['details'];

/** What every answer that carries a game's view holds whatever the game. */
type AnswerCommon = Omit<Schemas['CommandAnswer'], 'gameType' | 'view' | 'legalCommands' | 'seatCommands' | 'events'>;

/** The answer to a command, or a live update, of a game of type `T`. */
interface Answer<T extends GameType> extends AnswerCommon {
  readonly gameType: T;
  /** The game as the caller may see it. */
  view: ViewOf<T>;
  /** What the caller's seat may send now. */
  readonly legalCommands: CommandOf<T>[];
  /** Through everyone's eyes only (the referee of a supplied-chance game): every seat's legal commands, index = seat. */
  readonly seatCommands?: CommandOf<T>[][];
  /** The new events, as the caller may see them. */
  readonly events: { seq: number; event: EventOf<T> }[];
}

/** Distributes over a union of game types (so that `gameType` tells them apart) and,
 * for a type parameter, stays `Answer<T>` (so that generic code keeps its `T`). */
export type CommandAnswerOf<T extends GameType> = { [K in T]: Answer<K> }[T];

/** What a command request may carry besides the command. */
export type CommandOptions = Omit<paths['/games/{id}/commands']['post']['requestBody']['content']['application/json'], 'command'>;
