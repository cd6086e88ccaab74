// The model double: a real HTTP server speaking OpenAI chat completions, Ollama's native API
// and Anthropic Messages, answering each model request with the next scripted step.
//
//   const double = await startModelDouble();
//   double.script(toolCalls([{ name: 'read_file', arguments: { path: 'a.ts' } }]), text('Done.'));
//   new OpenAI({ baseURL: double.openaiBaseUrl, apiKey: 'x' })   // or Anthropic({ baseURL: double.url })
//                                                                 // or fetch(`${double.url}/api/chat`)

export { startModelDouble } from './server';
export { text, toolCalls, toolCall, textThenTools, httpError, wireError, disconnect, withFaults } from './builders';
export type { CallInput, ReplyOptions, TextOptions, ToolOptions } from './builders';
export { presets, type PresetName } from './presets';
export { EMPTY_SCRIPT_MESSAGE } from './render';
export { DoubleControl } from './control';
export type { ServerBehaviour, GrammarFlavour, ToolChoiceBehaviour } from './behaviour';
export { REFERENCES as SERVER_REFERENCES, renderedTokens } from './servers';
export type { LlamaCppPersona, LmStudioPersona, ServerPersona, VllmPersona } from './servers';
export type {
	ArgDeltaShape,
	DataStep,
	Faults,
	HealthState,
	HttpErrorStep,
	ModelDouble,
	ModelDoubleOptions,
	RecordedRequest,
	ReplyStep,
	ResponseRecord,
	Step,
	StepFn,
	ToolCallSpec,
	Usage,
	Wire,
	WireErrorStep,
} from './types';
