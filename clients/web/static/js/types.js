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

export {};
