import { useEffect, useState } from 'preact/hooks';
import { everydayState } from './everydayState';

/** Re-renders the calling component when the everyday state changes. */
export function useEverydayState(): typeof everydayState {
	const [, setTick] = useState(0);
	useEffect(() => everydayState.subscribe(() => setTick(tick => tick + 1)), []);
	return everydayState;
}
