import * as assert from 'assert';
import { ACT, BUILT_IN_MODES, type Mode } from '../../../../src/core/modes/modes';
import { Emitter } from '../../../../src/core/util/emitter';
import { WebviewChannel } from '../../../../src/host/view/webviewChannel';
import { ModeControl } from '../../../../src/host/projectContext/modeControl';
import type { ModesHost } from '../../../../src/host/projectContext/modesHost';
import type { SessionController } from '../../../../src/host/session/sessionController';
import { PROTOCOL_VERSION, type HostToWebview } from '../../../../src/shared/protocol';

/** Modes kept per session, as ModesHost keeps them; `set` throws for an unknown mode as it does. */
function fakeModes() {
	const bySession = new Map<string, Mode>();
	const changed = new Emitter<{ sessionId: string; mode: Mode }>();
	const modes = {
		onDidChange: changed.event,
		all: () => [...BUILT_IN_MODES],
		get: (sessionId: string) => bySession.get(sessionId) ?? ACT,
		set: (sessionId: string, name: string) => {
			const mode = BUILT_IN_MODES.find(m => m.id === name.toLowerCase());
			if (!mode) {
				throw new Error(`There is no mode "${name}". Modes: Act, Plan.`);
			}
			bySession.set(sessionId, mode);
			changed.fire({ sessionId, mode });
			return mode;
		},
	};
	return modes as unknown as ModesHost;
}

function setup() {
	const posted: HostToWebview[] = [];
	const notices: Array<{ level: string; code: string; text: string }> = [];
	const channel = new WebviewChannel();
	const conversation = { sessionId: 's1' };
	const modes = fakeModes();
	const control = new ModeControl(
		modes,
		{
			get sessionId() {
				return conversation.sessionId;
			},
			showNotice: (n: never) => notices.push(n),
		} as unknown as SessionController,
		channel,
		{ warn() {}, error() {}, info() {}, debug() {} } as never,
	);
	const open = () =>
		channel.open(
			m => posted.push(m as HostToWebview),
			PROTOCOL_VERSION,
			() => ({
				type: 'didSnapshot',
				state: { sessionId: conversation.sessionId, busy: false, items: [], olderCount: 0, modelLabel: 'm' },
			}),
		);
	const shown = () => {
		const last = posted.filter(m => m.type === 'didSetMode').at(-1);
		return last?.type === 'didSetMode' ? [last.mode.id, last.modes.map(m => m.id)] : undefined;
	};
	return { control, modes, conversation, notices, open, shown, channel };
}

describe("ModeControl (the chat's mode picker)", () => {
	it('follows every snapshot with the mode of the chat on screen and the modes to pick from', () => {
		const { open, shown, modes, conversation, channel } = setup();
		open();
		assert.deepStrictEqual(shown(), ['act', ['act', 'plan']]);
		modes.set('s2', 'plan');
		conversation.sessionId = 's2';
		channel.reset({
			type: 'didSnapshot',
			state: { sessionId: 's2', busy: false, items: [], olderCount: 0, modelLabel: 'm' },
		});
		assert.deepStrictEqual(shown(), ['plan', ['act', 'plan']], 'another chat shows its own mode');
	});

	it("switches on the picker's choice; another chat's switch is not shown; an unknown mode is a notice", () => {
		const { open, shown, control, modes, notices } = setup();
		open();
		control.set('plan');
		assert.deepStrictEqual(shown(), ['plan', ['act', 'plan']]);
		modes.set('other-chat', 'act');
		assert.deepStrictEqual(shown(), ['plan', ['act', 'plan']], 'the chat on screen keeps showing its own mode');
		control.set('yolo');
		assert.deepStrictEqual(
			notices.map(n => [n.level, n.code]),
			[['error', 'mode']],
		);
	});
});
