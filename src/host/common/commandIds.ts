/**
 * The palette commands the host runs (package.json `contributes.commands`, except
 * `keel.focusChat`, which the activation shim answers itself). The shim registers each id and
 * loads the host on the first call; each feature folder implements its own. Kept free of
 * runtime imports: the shim bundles this list and nothing else of the host.
 */
export const HOST_COMMANDS = [
	// session/
	'keel.newChat',
	'keel.stop',
	'keel.showHistory',
	'keel.compact',
	'keel.rewindConversation',
	'keel.undoRewind',
	// composer/
	'keel.askAboutSelection',
	'keel.askKeelAboutSelection',
	// models/
	'keel.setApiKey',
	'keel.selectModel',
	'keel.probeModel',
	// checkModel/
	'keel.checkModel',
	'keel.showCheckModelReport',
	// tools/, mcp/
	'keel.unblockTools',
	'keel.mcpServers',
	// projectContext/
	'keel.draftAgentsMd',
	'keel.switchMode',
	'keel.planMode',
	'keel.actMode',
	// notifications/ (the Continue link of a notification; hidden from the palette)
	'keel.continueTurn',
	// checkpoints/
	'keel.showTurnChanges',
	'keel.restoreCheckpoint',
	'keel.undoRestore',
] as const;

export type HostCommandId = (typeof HOST_COMMANDS)[number];

/** A command's handler; arguments come from keybindings, menus and tests, so each checks its own. */
export type CommandHandler = (...args: unknown[]) => unknown;

/** The commands one feature contributes, by id (the composition root checks that every id has one). */
export type FeatureCommands<K extends HostCommandId> = Record<K, CommandHandler>;
