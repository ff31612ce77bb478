// The event store's writes on Citus (docs/scaling.md). Citus plans a statement for one
// shard only if none of its parts inserts: the append and the creation of a game, each a
// single statement of inserting parts on plain PostgreSQL (store.ts, group-commit.ts),
// would be cut into steps that pass intermediate results through the coordinator (about
// 30 ms an append here, against 1.5). Each is therefore a function that Citus delegates
// whole to the worker holding the game's shard (create_distributed_function, by its
// first argument, the game's id): one round trip from the coordinator, one shard, one
// local transaction, with the same guards as the plain statements. No NOTIFY inside: a
// worker's notification would never reach the listeners on the coordinator, so every
// append is announced after its commit (notifier.ts).
//
// src/db/distribution.ts creates them with the layout. A changed function gets a new
// name (the _vN), so that servers of the previous release keep theirs while a new one
// rolls out.
/** One game's appends, chained, and refused race commands of that game (riders), in
 * the JSON rows of group-commit.ts. Returns whether the appends were made and the
 * riders now recorded. */
const APPEND = `
CREATE OR REPLACE FUNCTION spielwerk_append_v1(the_game uuid, appends jsonb, riders jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
  from_version int;
  to_version int;
  final_status text;
  next_deadline timestamptz;
  -- Citus refuses now() inside a CASE of a distributed UPDATE; a variable is a value.
  committed_at timestamptz := now();
  appended boolean := false;
  recorded jsonb;
BEGIN
  -- A game's appends form a chain; the game ends where the last one leaves it.
  SELECT min(x.expected), max(x.expected + x.n),
         (array_agg(x.status ORDER BY x.expected DESC))[1], (array_agg(x.deadline ORDER BY x.expected DESC))[1]
    INTO from_version, to_version, final_status, next_deadline
    FROM jsonb_to_recordset(appends) AS x(expected int, n int, status text, deadline timestamptz);
  IF from_version IS NOT NULL THEN
    UPDATE game g
       SET version = to_version, status = final_status, deadline = next_deadline, updated_at = committed_at,
           finished_at = CASE WHEN final_status = 'finished' THEN committed_at ELSE g.finished_at END
     WHERE g.id = the_game AND g.version = from_version;
    appended := FOUND;
  END IF;
  IF appended THEN
    INSERT INTO event (game_id, seq, type, data, actor, at, command_id)
    SELECT the_game, x.expected + e.ord::int, e.ev->>'type', e.ev, x.actor, x.at, x.command_id
      FROM jsonb_to_recordset(appends) AS x(expected int, actor text, at timestamptz, command_id text, events jsonb),
           jsonb_array_elements(x.events) WITH ORDINALITY AS e(ev, ord);
    INSERT INTO command_record (game_id, key, request_hash, response)
    SELECT the_game, x.idem_key, x.idem_hash, x.idem_response
      FROM jsonb_to_recordset(appends) AS x(idem_key text, idem_hash text, idem_response jsonb)
     WHERE x.idem_key IS NOT NULL;
  END IF;
  -- A rider is written when its refusal stands, or when this append proves the state it
  -- was decided on; in key order, so that two calls carrying the same riders cannot deadlock.
  INSERT INTO race_refusal (id, game_id, version, seat, actor, command, code, received_at, ord)
  SELECT r.id, the_game, r.version, r.seat, r.actor, r.command, r.code, r.received_at, r.ord
    FROM jsonb_to_recordset(riders) AS r(id uuid, version int, seat int, actor text, command jsonb, code text, received_at bigint, ord int, stands boolean)
   WHERE r.stands OR (appended AND from_version <= r.version AND r.version <= to_version)
   ORDER BY r.id
  ON CONFLICT (game_id, id) DO NOTHING;
  SELECT coalesce(jsonb_agg(r.id), '[]') INTO recorded
    FROM jsonb_to_recordset(riders) AS r(id uuid, version int, stands boolean)
   WHERE r.stands OR (appended AND from_version <= r.version AND r.version <= to_version);
  RETURN jsonb_build_object('appended', appended, 'riders', recorded);
END $fn$`;

/** A new game, its seats and its opening events; the arguments of CREATE_GAME_SQL in
 * store.ts. v2 adds the game's bot think time ($19); v1 stays in a database that had it,
 * for instances of the version before until they are replaced. */
const CREATE_GAME = `
CREATE OR REPLACE FUNCTION spielwerk_create_game_v2(
  uuid, text, text, jsonb, int, text, text, text, text, text, int, timestamptz, timestamptz, uuid, jsonb, jsonb, text, text, int
) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO game (id, type, rules_version, options, seat_count, chance_mode, seed, seed_hash, referee_token_hash,
                    status, version, deadline, created_at, updated_at, organizer_id, seed_nonce, seed_chosen_by, bot_think_ms)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, $14, $17, $18, $19);
  INSERT INTO seat (game_id, seat, name, token_hash, joined_at, bot)
  SELECT $1, s.seat, s.name, s.token_hash, s.joined_at, s.bot
    FROM jsonb_to_recordset($15) AS s(seat int, name text, token_hash text, joined_at timestamptz, bot text);
  INSERT INTO event (game_id, seq, type, data, actor, at)
  SELECT $1, e.ord::int, e.ev->>'type', e.ev, 'system', $13
    FROM jsonb_array_elements($16) WITH ORDINALITY AS e(ev, ord);
END $fn$`;

/** The functions the layout (src/db/distribution.ts) creates and delegates by their first argument. */
export const citusFunctions: readonly { readonly signature: string; readonly definition: string }[] = [
  { signature: 'spielwerk_append_v1(uuid, jsonb, jsonb)', definition: APPEND },
  {
    signature: 'spielwerk_create_game_v2(uuid, text, text, jsonb, int, text, text, text, text, text, int, timestamptz, timestamptz, uuid, jsonb, jsonb, text, text, int)',
    definition: CREATE_GAME,
  },
];

/** Appends one game's chain with its riders: `$1` the game, `$2` the appends, `$3` the riders. */
export const CITUS_APPEND_SQL = 'SELECT spielwerk_append_v1($1::uuid, $2::jsonb, $3::jsonb) AS written';

/** What spielwerk_append_v1 answers. */
export interface CitusAppended {
  readonly appended: boolean;
  /** The riders recorded: written now, or found written by another call. */
  readonly riders: readonly string[];
}

/** Creates a game with the arguments of CREATE_GAME_SQL (store.ts). */
export const CITUS_CREATE_GAME_SQL = `SELECT spielwerk_create_game_v2(${Array.from({ length: 19 }, (_, i) => `$${i + 1}`).join(', ')})`;
