/**
 * Reasoning that arrives inside the answer text: `<think>…</think>` (Qwen3, DeepSeek-R1, GLM,
 * MiniMax) and OpenAI Harmony channels (gpt-oss on servers that pass its tokens through:
 * `<|channel|>analysis<|message|>…<|end|>`, `…final<|message|>…`, and calls as
 * `<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>`).
 * Streamed: a tag torn across chunks is held back until it is complete.
 */
export type Segment =
	| { kind: 'text' | 'reasoning'; text: string }
	/** `</think>` without an opening tag (Qwen3 templates open it in the prompt): the answer so far was reasoning. */
	| { kind: 'answerWasReasoning' };

export interface HarmonyCall {
	name: string;
	rawArguments: string;
}

const TAGS = [
	'<think>',
	'</think>',
	'<thinking>',
	'</thinking>',
	'<|channel|>',
	'<|message|>',
	'<|end|>',
	'<|start|>',
	'<|call|>',
	'<|return|>',
	'<|constrain|>',
];

type Mode = 'answer' | 'think' | 'header' | 'analysis' | 'final' | 'call' | 'done';

export class ReasoningSplitter {
	/** Harmony calls, complete or cut, in order; validated against the offered tools later. */
	readonly harmonyCalls: HarmonyCall[] = [];
	private _buffer = '';
	private _mode: Mode = 'answer';
	private _header = '';
	private _sawOpen = false;
	private _sawAnswer = false;

	push(chunk: string): Segment[] {
		this._buffer += chunk;
		return this._drain(false);
	}

	end(): Segment[] {
		return this._drain(true);
	}

	private _drain(final: boolean): Segment[] {
		const out: Segment[] = [];
		for (;;) {
			const at = this._buffer.indexOf('<');
			if (at < 0) {
				this._emit(this._buffer, out);
				this._buffer = '';
				return out;
			}
			this._emit(this._buffer.slice(0, at), out);
			this._buffer = this._buffer.slice(at);
			const tag = TAGS.find(t => this._buffer.startsWith(t));
			if (tag) {
				this._buffer = this._buffer.slice(tag.length);
				this._onTag(tag, out);
				continue;
			}
			if (!final && TAGS.some(t => t.length > this._buffer.length && t.startsWith(this._buffer))) {
				return out;
			}
			this._emit('<', out);
			this._buffer = this._buffer.slice(1);
		}
	}

	private _emit(text: string, out: Segment[]): void {
		if (!text) {
			return;
		}
		switch (this._mode) {
			case 'answer':
			case 'final':
				this._sawAnswer ||= text.trim() !== '';
				push(out, 'text', text);
				break;
			case 'think':
			case 'analysis':
				push(out, 'reasoning', text);
				break;
			case 'header':
				this._header += text;
				break;
			case 'call':
				this.harmonyCalls[this.harmonyCalls.length - 1].rawArguments += text;
				break;
			case 'done':
				// After the first <|call|> the model is imagining the tool's answer: never shown, never run.
				break;
		}
	}

	private _onTag(tag: string, out: Segment[]): void {
		if (this._mode === 'done') {
			return;
		}
		switch (tag) {
			case '<think>':
			case '<thinking>':
				if (this._mode === 'answer') {
					this._sawOpen = true;
					this._mode = 'think';
				}
				break;
			case '</think>':
			case '</thinking>':
				if (this._mode === 'think') {
					this._mode = 'answer';
				} else if (this._mode === 'answer' && !this._sawOpen) {
					this._sawOpen = true;
					if (this._sawAnswer) {
						out.push({ kind: 'answerWasReasoning' });
						this._sawAnswer = false;
					}
				}
				break;
			case '<|start|>':
				this._mode = 'header';
				this._header = '';
				break;
			case '<|channel|>':
				if (this._mode !== 'header') {
					this._header = '';
				}
				this._header += ' ';
				this._mode = 'header';
				break;
			case '<|constrain|>':
				if (this._mode === 'header') {
					this._header += ' ';
				}
				break;
			case '<|message|>':
				if (this._mode === 'header') {
					this._mode = this._openMessage(this._header);
				}
				break;
			case '<|call|>':
				this._mode = this._mode === 'call' ? 'done' : 'answer';
				break;
			case '<|end|>':
			case '<|return|>':
				this._mode = 'answer';
				break;
		}
	}

	private _openMessage(header: string): Mode {
		const recipient = /to=([^\s<]+)/.exec(header)?.[1];
		if (recipient && !/^(assistant|user|all)$/.test(recipient)) {
			this.harmonyCalls.push({ name: recipient, rawArguments: '' });
			return 'call';
		}
		return /\banalysis\b/.test(header) ? 'analysis' : 'final';
	}
}

function push(out: Segment[], kind: 'text' | 'reasoning', text: string): void {
	const last = out[out.length - 1];
	if (last && last.kind === kind) {
		last.text += text;
	} else {
		out.push({ kind, text });
	}
}
