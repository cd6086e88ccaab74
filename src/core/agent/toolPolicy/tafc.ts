/**
 * Think-augmented function calling: tools whose schemas are hard to fill (many required
 * parameters, nesting, large enums) get a `thinking` string the model writes first. Small
 * models choose better arguments after reasoning about them; Keel drops the field before
 * validation, so the tool never sees it.
 */
import type { ToolSpec } from '../../llm/chatModel';

export const THINKING_FIELD = 'thinking';

export interface TafcSettings {
	enabled: boolean;
	complexityThreshold: number;
}

export const defaultTafcSettings: TafcSettings = { enabled: false, complexityThreshold: 0.6 };

/** NaN, Infinity and out-of-range thresholds fall back to the default or are clamped to [0, 1]. */
export function clampThreshold(value: number): number {
	return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : defaultTafcSettings.complexityThreshold;
}

type Schema = {
	type?: unknown;
	properties?: Record<string, Schema>;
	items?: Schema;
	required?: string[];
	enum?: unknown[];
	anyOf?: Schema[];
};

function schemaDepth(schema: Schema): number {
	const children = [
		...Object.values(schema.properties ?? {}),
		...(schema.items ? [schema.items] : []),
		...(schema.anyOf ?? []),
	];
	return children.length ? 1 + Math.max(...children.map(schemaDepth)) : 0;
}

function largestEnum(schema: Schema): number {
	const children = [
		...Object.values(schema.properties ?? {}),
		...(schema.items ? [schema.items] : []),
		...(schema.anyOf ?? []),
	];
	return Math.max(schema.enum?.length ?? 0, 0, ...children.map(largestEnum));
}

/**
 * 0..1: required parameters (4+ saturates), nesting below the top object (3+ levels
 * saturates) and the largest enum (10+ values saturates), weighted 0.5 / 0.3 / 0.2.
 */
export function schemaComplexity(parameters: Record<string, unknown>): number {
	const schema = parameters as Schema;
	const required = Math.min(1, (schema.required?.length ?? 0) / 4);
	const nesting = Math.min(1, Math.max(0, schemaDepth(schema) - 1) / 3);
	const enums = Math.min(1, largestEnum(schema) / 10);
	return Math.round((0.5 * required + 0.3 * nesting + 0.2 * enums) * 100) / 100;
}

export function augmentSpec(spec: ToolSpec, settings: TafcSettings): ToolSpec {
	if (!settings.enabled || schemaComplexity(spec.parameters) < clampThreshold(settings.complexityThreshold)) {
		return spec;
	}
	const schema = spec.parameters as Schema;
	return {
		...spec,
		parameters: {
			...spec.parameters,
			// First in the object, so a model that writes in order reasons before it chooses.
			properties: {
				[THINKING_FIELD]: {
					type: 'string',
					description: 'Think step by step about which values the other arguments need, then fill them.',
				},
				...(schema.properties ?? {}),
			},
			required: [THINKING_FIELD, ...(schema.required ?? [])],
		},
	};
}

/** The raw arguments without `thinking`; text that is not a JSON object passes unchanged. */
export function dropThinking(rawArguments: string): string {
	try {
		const value = JSON.parse(rawArguments);
		if (value && typeof value === 'object' && !Array.isArray(value) && THINKING_FIELD in value) {
			delete value[THINKING_FIELD];
			return JSON.stringify(value);
		}
	} catch {
		// Not JSON: argument repair and validation report it as usual.
	}
	return rawArguments;
}
