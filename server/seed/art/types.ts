import type { Paint } from './paint';

export interface Art {
  svg: string;
  /** 'stand' things sit on a floor line at y=340; 'flat' things are seen from above. */
  pose: 'stand' | 'flat';
  /** Width of the contact shadow for standing things. */
  footprint: number;
  /** The point the close-up view zooms into. */
  focus: [number, number];
  /** How much larger than the default the thing is shown (small things get more than 1). */
  zoom?: number;
}

export interface DrawOptions {
  /** Name of the picture, used to vary small details deterministically. */
  seed: string;
}

export type Drawer = (p: Paint, options: DrawOptions) => Art;
