import { useEffect } from 'react';

// How long after a submit to look for the errors: the shared yup validation is asynchronous and a
// busy page draws them late; the person acting first (a key press, a click) ends the wait.
const WAIT_MS = 1000;

/**
 * On every form submit, once the form has drawn its field errors, moves focus to the first field
 * marked invalid (Mantine sets aria-invalid and ties the message through aria-describedby), so a
 * keyboard or screen-reader user lands on what needs fixing. Installed once by the app shell, so
 * every react-final-form form gets it.
 */
export const useFocusFirstInvalidOnSubmit = () => {
  useEffect(() => {
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement)) return;
      const until = performance.now() + WAIT_MS;
      let acted = false;
      const act = () => {
        acted = true;
      };
      document.addEventListener('keydown', act, { capture: true, once: true });
      document.addEventListener('pointerdown', act, { capture: true, once: true });
      const done = () => {
        document.removeEventListener('keydown', act, { capture: true });
        document.removeEventListener('pointerdown', act, { capture: true });
      };
      const look = () => {
        if (acted) return done();
        const invalid = form.querySelector<HTMLElement>('[aria-invalid="true"]');
        if (invalid) {
          if (document.activeElement !== invalid) invalid.focus();
          return done();
        }
        if (performance.now() < until) requestAnimationFrame(look);
        else done();
      };
      requestAnimationFrame(look);
    };
    document.addEventListener('submit', onSubmit, true);
    return () => document.removeEventListener('submit', onSubmit, true);
  }, []);
};
