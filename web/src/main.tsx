// The page's entry: picks the page for the path. The server serves the same shell at
// each of these paths (src/routes/pages.ts).
import { render } from 'preact';
import { LobbyPage } from './pages/lobby.tsx';
import { PlayPage } from './pages/play.tsx';
import { ReplayPage } from './pages/replay.tsx';
import { tournamentPage } from './pages/tournament-routes.tsx';
import { WatchPage } from './pages/watch.tsx';
import './style.css';

function App() {
  const [, page, id] = location.pathname.split('/');
  if (page === 'replay' && id) return <ReplayPage id={id} />;
  if (page === 'watch' && id) return <WatchPage id={id} />;
  if (page === 'play' && id) return <PlayPage id={id} />;
  const tournament = tournamentPage(location.pathname);
  if (tournament) return tournament;
  return <LobbyPage />;
}

render(<App />, document.getElementById('app')!);
