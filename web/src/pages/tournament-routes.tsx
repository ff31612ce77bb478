// The tournament pages' paths (served by src/routes/pages.ts): the public page, a
// player's page, the join link's registration page and the organizer's console.
import type { VNode } from 'preact';
import { JoinPage } from './join.tsx';
import { ConsolePage } from './organize.tsx';
import { PlayerPage } from './tournament-player.tsx';
import { TournamentPage } from './tournament.tsx';
import '../tournament.css';

/** The page for `/t/{id}`, `/t/{id}/me`, `/join/{code}`, `/organize` or `/organize/{id}`; null for any other path. */
export function tournamentPage(path: string): VNode | null {
  const [, page, id, sub] = path.split('/').map(decodeURIComponent);
  if (page === 't' && id && sub === 'me') return <PlayerPage id={id} />;
  if (page === 't' && id) return <TournamentPage id={id} />;
  if (page === 'join' && id) return <JoinPage code={id} />;
  if (page === 'organize') return <ConsolePage id={id || null} />;
  return null;
}
