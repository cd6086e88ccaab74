// The formatter, set to the style the code is written in: tabs, single quotes, semicolons,
// trailing commas, `x => …` without parentheses. 120 columns, so a file's length and a function's
// length (ESLint's max-lines rules) say how much there is to read; the reformat commit is listed in
// .git-blame-ignore-revs. `npm run format` writes, `npm run format:check` checks (part of `npm test`).
export default {
	useTabs: true,
	tabWidth: 4,
	printWidth: 120,
	singleQuote: true,
	semi: true,
	trailingComma: 'all',
	arrowParens: 'avoid',
	bracketSpacing: true,
	endOfLine: 'lf',
};
