// Size rules that say how much there is to read. A function stays under 80 lines (blank and
// comment lines not counted) except a tool definition list, `create…Tools`, which is one entry per
// tool and reads as a table: it is exempt by name, and nothing else is.
import { builtinRules } from 'eslint/use-at-your-own-risk';

const maxLinesPerFunction = builtinRules.get('max-lines-per-function');
export const TOOL_LIST = /^create\w*Tools$/;

function functionName(node) {
	if (node.id?.name) return node.id.name;
	const parent = node.parent;
	if (parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
	if ((parent?.type === 'Property' || parent?.type === 'MethodDefinition') && parent.key.type === 'Identifier') {
		return parent.key.name;
	}
	return undefined;
}

/** max-lines-per-function, with tool definition lists exempt by name. */
const maxLinesPerFunctionExceptToolLists = {
	meta: { ...maxLinesPerFunction.meta, docs: { description: 'max-lines-per-function, tool lists exempt' } },
	create(context) {
		const filtered = Object.create(context, {
			report: {
				value: descriptor => {
					if (!TOOL_LIST.test(functionName(descriptor.node) ?? '')) context.report(descriptor);
				},
			},
		});
		return maxLinesPerFunction.create(filtered);
	},
};

export const sizePlugin = { rules: { 'max-lines-per-function': maxLinesPerFunctionExceptToolLists } };

export const sizeRules = {
	'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
	'keel-size/max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
};
