import classes from './skip-link.module.css';

export const MAIN_ID = 'main-content';

/**
 * The first Tab stop of every signed-in page: hidden until focused, it moves focus past the
 * header and navigation to the page's main content.
 */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_ID}`}
      className={classes.link}
      onClick={(event) => {
        // Focus moves without a #fragment in the address, which the router would treat as a navigation.
        event.preventDefault();
        const main = document.getElementById(MAIN_ID);
        main?.focus();
        main?.scrollIntoView({ block: 'start' });
      }}
    >
      Skip to content
    </a>
  );
}
