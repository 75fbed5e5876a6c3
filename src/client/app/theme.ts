import {
  DEFAULT_THEME,
  createTheme,
  darken,
  lighten,
  luminance,
  type CSSVariablesResolver,
} from '@mantine/core';
import classes from './theme.module.css';

/** WCAG 2.x contrast ratio of two colours. */
const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

// 4.5:1 is the floor for text; a little over it survives rounding in the browser.
const TEXT_CONTRAST = 4.6;

/** `color` darkened (or, on a dark background, lightened) in small steps until it reads on every background given. */
const readableOn = (color: string, backgrounds: string[], direction: 'darker' | 'lighter') => {
  let result = color;
  for (let step = 0; step < 40 && backgrounds.some((background) => contrast(result, background) < TEXT_CONTRAST); step += 1) {
    result = direction === 'darker' ? darken(result, 0.05) : lighten(result, 0.05);
  }
  return result;
};

const { colors } = DEFAULT_THEME;
const WHITE = DEFAULT_THEME.white;
const LIGHT_SURFACES = [WHITE, colors.gray[0]];
// Dark pages, papers and inputs: dark.7 (body), dark.6 (default), dark.5 (hover).
const DARK_SURFACES = [colors.dark[7], colors.dark[6], colors.dark[5]];

/**
 * Mantine's default colours put grey captions, light badges and error text under 4.5:1 (gray.6
 * on white is 3.3:1, green.9 on green.1 3.8:1, dark.2 on dark.7 4.0:1). Each is replaced by the
 * nearest shade that reads on the surfaces it sits on, in both schemes.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': readableOn(colors.gray[6], LIGHT_SURFACES, 'darker'),
    '--mantine-color-placeholder': readableOn(colors.gray[6], LIGHT_SURFACES, 'darker'),
    '--mantine-color-error': readableOn(colors.red[8], LIGHT_SURFACES, 'darker'),
    // Input borders are a control's only outline: 3:1 (WCAG 1.4.11).
    '--app-input-border': colors.gray[6],
  };
  const dark: Record<string, string> = {
    '--mantine-color-dimmed': readableOn(colors.dark[2], DARK_SURFACES, 'lighter'),
    '--mantine-color-placeholder': readableOn(colors.dark[2], DARK_SURFACES, 'lighter'),
    '--mantine-color-error': readableOn(colors.red[6], DARK_SURFACES, 'lighter'),
    '--app-input-border': colors.dark[2],
  };
  for (const [name, shades] of Object.entries(colors)) {
    // Light variants (badges, light buttons, the active nav link): shade 9 text on shade 1.
    light[`--mantine-color-${name}-light-color`] = readableOn(shades[9], [shades[1], ...LIGHT_SURFACES], 'darker');
    // Coloured text (`c="red"`) on the page.
    light[`--mantine-color-${name}-text`] = readableOn(shades[8], LIGHT_SURFACES, 'darker');
    dark[`--mantine-color-${name}-text`] = readableOn(shades[4], DARK_SURFACES, 'lighter');
  }
  return { variables: {}, light, dark };
};

const CONTROL_LABELS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

// Plain objects, not `Modal.extend()`: the theme is in the sign-in page's bundle, and `.extend`
// would pull the components themselves into it.

export const theme = createTheme({
  primaryColor: 'blue',
  // Filled buttons, links and outlines in blue.8: white on blue.6 is 3.6:1, on blue.8 5.1:1.
  primaryShade: { light: 8, dark: 8 },
  // Black or white text on a filled colour, whichever contrasts more (0.179 is where they tie).
  autoContrast: true,
  luminanceThreshold: 0.179,
  // Mantine's transitions end at once when the system asks for reduced motion.
  respectReducedMotion: true,
  defaultRadius: 'md',
  components: {
    // A dialog's header is not the page's banner: Mantine renders it as <header>.
    ModalHeader: { defaultProps: { component: 'div' } },
    DrawerHeader: { defaultProps: { component: 'div' } },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close panel' } } },
    Pagination: { defaultProps: { getControlProps: (control: keyof typeof CONTROL_LABELS) => ({ 'aria-label': CONTROL_LABELS[control] }) } },
    Input: { classNames: { wrapper: classes.inputWrapper, input: classes.input } },
  },
});
