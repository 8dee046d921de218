// @ts-check
// types: JSDoc typedefs of the plugin contract (clients/web/PLUGINS.md) and
// of the state messages the room hands a plugin (docs/protocol.md). Only
// types: modules import them with `@typedef {import("/assets/js/types.js").X} X`
// (or "../js/types.js" relative to a game) and nothing at run time.

/**
 * A seat as the state message lists it.
 * @typedef {object} Player
 * @property {number} id
 * @property {string} [name]
 * @property {boolean} [isBot]
 * @property {boolean} [isConnected]
 * @property {string} [botLevel]
 * @property {boolean} [autoplay]
 */

/**
 * The framework's part of a state.
 * @typedef {object} Ctx
 * @property {boolean} [started]
 * @property {string} [currentPlayer]
 * @property {number} [turn]
 * @property {string} [phase]
 * @property {any} gameover null until the match ends
 */

/**
 * One `state` message (docs/protocol.md); G is the game's view for `you`.
 * @typedef {object} State
 * @property {string} matchID
 * @property {number} stateID
 * @property {any} G
 * @property {Ctx} ctx
 * @property {Player[]} players
 * @property {any[]} [log]
 * @property {string} you "" for a spectator
 * @property {any} [thinking]
 */

/**
 * The second argument of update.
 * @typedef {object} UpdateOptions
 * @property {number} [behind] how many states wait behind this one
 * @property {boolean} [sync] draw the present at once, no animation
 * @property {boolean} [redraw] a language change: redraw, return 0
 */

/**
 * What the host hands mount.
 * @typedef {object} PluginApi
 * @property {string | null} you the viewer's playerID; null for a spectator
 * @property {() => string} lang "en" or "zh"
 * @property {(key: string, params?: Record<string, any>) => string} t
 * @property {(name: string, args: any[]) => Promise<any>} move
 * @property {(fn: (lang: string) => void) => void} onLangChange
 */

/**
 * What mount returns. update returns how long the state needs on show:
 * milliseconds, or a Promise settled when its animation is done.
 * @typedef {object} Controller
 * @property {(state: State, opts?: UpdateOptions) => (number | Promise<unknown> | void)} update
 * @property {() => void} destroy
 */

/**
 * Bilingual strings a plugin adds to the host's tables.
 * @typedef {{en: Record<string, string>, zh: Record<string, string>}} Strings
 */

/**
 * A plugin module's default export.
 * @typedef {object} Plugin
 * @property {(el: HTMLElement, api: PluginApi) => Controller} mount
 * @property {Strings} [strings]
 * @property {boolean} [showsThinking]
 */

/**
 * A board point: column x from the left, row y from the top.
 * @typedef {{x: number, y: number}} Point
 */

/**
 * A square board's geometry in CSS pixels: width w, n lines, cell the
 * distance between lines, pad the margin to the first line (r: stone radius).
 * @typedef {{w: number, n: number, cell: number, pad: number, r?: number}} Geom
 */

/* The host's own types: the lobby API's answers (docs/protocol.md, "Lobby
   API") and the WebSocket's messages, as js/api.js, js/conn.js and the
   pages use them. */

/**
 * Text in both languages.
 * @typedef {{en: string, zh: string}} Label
 */

/**
 * One key setupData may hold, as the catalog describes it.
 * @typedef {object} SetupOption
 * @property {Label} [label]
 * @property {"int" | "float" | "bool" | "enum"} type
 * @property {any} [default] what an absent key means
 * @property {any[]} [choices] the values of an enum
 * @property {number | null} [min]
 * @property {number | null} [max]
 */

/**
 * A move as the catalog lists it.
 * @typedef {object} CatalogMove
 * @property {Label} [description]
 * @property {string} [args] the shape of the move's args, for people
 * @property {boolean} [secretArgs]
 * @property {boolean} [anySeat]
 */

/**
 * One game of GET /catalog.
 * @typedef {object} CatalogEntry
 * @property {string} name
 * @property {Label} title
 * @property {number} minPlayers
 * @property {number} maxPlayers
 * @property {Record<string, SetupOption>} [setupOptions]
 * @property {Record<string, CatalogMove>} [moves]
 * @property {string[]} [bots] the bot levels, easiest first
 * @property {boolean} [ownLLM] players may seat their own LLM (level "llm-own")
 */

/**
 * A seat of a lobby Match: a state's Player with the seat's free-form data.
 * @typedef {Player & {data?: any}} MatchPlayer
 */

/**
 * The lobby's Match object (GET /games/{name}, GET /games/{name}/{id}).
 * @typedef {object} Match
 * @property {string} matchID
 * @property {string} gameName
 * @property {MatchPlayer[]} players
 * @property {Record<string, any>} [setupData]
 * @property {any} [gameover] absent before the end
 * @property {number} createdAt Unix ms
 * @property {number} updatedAt Unix ms
 * @property {boolean} [unlisted]
 * @property {boolean} started
 * @property {string} [nextMatchID]
 * @property {string[]} [toMove] only on GET /games/{name}/{id}
 */

/**
 * The player's own LLM endpoint as a create request carries it.
 * @typedef {object} OwnLLMWire
 * @property {string} name
 * @property {string} baseURL
 * @property {string} model
 * @property {string} key
 */

/**
 * A saved own-LLM configuration (js/llmconfigs.js, localStorage only).
 * @typedef {OwnLLMWire & {id: string}} LLMConfig
 */

/**
 * The body of POST /games/{name}/create.
 * @typedef {object} CreateBody
 * @property {number} numPlayers
 * @property {Record<string, any>} setupData
 * @property {boolean} unlisted
 * @property {Record<string, string>} [bots] seat -> bot level
 * @property {OwnLLMWire} [llm]
 * @property {{perMove: number, bank: number}} [clock] seconds
 */

/**
 * The answer of POST /games/{name}/create.
 * @typedef {{matchID: string}} CreateAnswer
 */

/**
 * The body of POST /games/{name}/{id}/join.
 * @typedef {{playerName: string, playerID?: string}} JoinBody
 */

/**
 * The answer of POST /games/{name}/{id}/join.
 * @typedef {{playerID: string, playerCredentials: string}} JoinAnswer
 */

/**
 * The answer of POST /games/{name}/{id}/playAgain.
 * @typedef {{nextMatchID: string}} PlayAgainAnswer
 */

/**
 * What POST /llm/try answered: its HTTP status and decoded body (null when
 * it was not JSON).
 * @typedef {{status: number, body: any}} TryAnswer
 */

/**
 * One step of a replay: what a spectator was sent at stateID.
 * @typedef {object} ReplayStep
 * @property {number} stateID
 * @property {any} G
 * @property {Ctx} ctx
 * @property {any} [log] the move that led here; absent at the start
 */

/**
 * A page of GET /games/{name}/{id}/replay.
 * @typedef {object} ReplayPage
 * @property {string} matchID
 * @property {string} gameName
 * @property {MatchPlayer[]} players
 * @property {number} total how many steps the match has
 * @property {number} from
 * @property {ReplayStep[]} steps
 * @property {number} [next] the stateID the next page starts at; absent at the end
 */

/**
 * A seat this browser holds (js/store.js): what the lobby's join answered
 * and the name it took. game and at (when it was taken) feed "my matches".
 * @typedef {object} Seat
 * @property {string} playerID
 * @property {string} credentials
 * @property {string} [name]
 * @property {string} [game]
 * @property {number} [at] Unix ms
 */

/**
 * A remembered seat with its match (store.listSeats).
 * @typedef {Seat & {matchID: string, game: string, at: number}} SeatEntry
 */

/**
 * A bot's decision under way (State.thinking): its seat, since when (Unix
 * ms) and the server's time when the message was written.
 * @typedef {{playerID: string, since: number, serverTime?: number}} Thinking
 */

/**
 * A state message (docs/protocol.md, "state"): the State with the fields
 * of the wire message around it.
 * @typedef {State & {type?: "state", ack?: number, clock?: any}} StateMessage
 */

/**
 * An error message, or a move refused; a lobby ApiError reads alike.
 * @typedef {object} ErrorMessage
 * @property {"error"} [type]
 * @property {string} code
 * @property {string} message
 * @property {string} [messageZh]
 * @property {number} [ref] the id of the move refused
 */

/**
 * A chat message.
 * @typedef {object} ChatMessage
 * @property {"chat"} [type]
 * @property {string} from the sender's playerID, "" for a spectator
 * @property {string} name
 * @property {string} text
 * @property {number} at the server's Unix ms
 */

export {};
