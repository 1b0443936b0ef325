/** The running app's selection, over the app's database and connectivity monitor. */
import { localDb } from './db';
import { connectivity } from './runtime';
import { LocalSelection } from './selection';

export const localSelection = new LocalSelection(localDb, connectivity);
