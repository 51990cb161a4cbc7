/** The tints a status pill can take; the words in it say the status, the tint only helps. */
export type PillTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';
