// Drives boardgame.io's LobbyClient against a Chaguan server and prints
// what every call answered, as one JSON object, for
// server/lobbyclient_node_test.go to check.
//
//   node lobbyclient.mjs <server URL> <directory whose node_modules holds boardgame.io>
import { createRequire } from "node:module";
import path from "node:path";

const [server, dir] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(dir), "node_modules", "lobbyclient.cjs"));
const { LobbyClient, LobbyClientError } = require("boardgame.io/client");
const version = require("boardgame.io/package.json").version;

const lobby = new LobbyClient({ server });
const game = "gomoku";
const out = { version };

// refused runs fn, which must throw LobbyClientError, and returns its
// message ("HTTP status N") and details (the server's error body).
async function refused(fn) {
  try {
    await fn();
  } catch (e) {
    return { error: e instanceof LobbyClientError, message: e.message, details: e.details };
  }
  return { error: false, message: "no error" };
}

out.games = await lobby.listGames();
const created = await lobby.createMatch(game, { numPlayers: 2 });
out.created = created;
const id = created.matchID;
out.unlisted = await lobby.createMatch(game, { numPlayers: 2, unlisted: true });
out.ann = await lobby.joinMatch(game, id, { playerName: "Ann", data: { avatar: 3 } });
out.update = await lobby.updatePlayer(game, id, {
  playerID: out.ann.playerID, credentials: out.ann.playerCredentials, newName: "Annie", data: { avatar: 4 },
});
out.before = await lobby.getMatch(game, id);
out.listed = await lobby.listMatches(game);
out.listedNotOver = await lobby.listMatches(game, { isGameover: false });
out.listedOver = await lobby.listMatches(game, { isGameover: true });
out.bob = await lobby.joinMatch(game, id, { playerID: "1", playerName: "Bob" });
out.seatTaken = await refused(() => lobby.joinMatch(game, id, { playerID: "1", playerName: "Eve" }));
out.started = await lobby.getMatch(game, id);
out.again = await lobby.playAgain(game, id, { playerID: "0", credentials: out.ann.playerCredentials });
out.againBob = await lobby.playAgain(game, id, { playerID: "1", credentials: out.bob.playerCredentials });
out.badLeave = await refused(() => lobby.leaveMatch(game, id, { playerID: "1", credentials: "0".repeat(32) }));
out.leave = (await lobby.leaveMatch(game, id, { playerID: "1", credentials: out.bob.playerCredentials })) ?? null;
out.after = await lobby.getMatch(game, id);
out.next = await lobby.getMatch(game, out.again.nextMatchID);
out.unknown = await refused(() => lobby.getMatch(game, "no-such-match"));

console.log(JSON.stringify(out));
