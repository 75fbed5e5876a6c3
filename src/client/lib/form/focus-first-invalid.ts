import { useEffect } from 'react';

// How long after a submit to watch for the errors: the shared yup validation is asynchronous and a
// busy page draws them late; the person acting first (a key press, a click) ends the wait.
const WAIT_MS = 2000;

/**
 * On every form submit, once the form has drawn its field errors, moves focus to the first field
 * marked invalid (Mantine sets aria-invalid and ties the message through aria-describedby), so a
 * keyboard or screen-reader user lands on what needs fixing. Installed once by the app shell, so
 * every react-final-form form gets it. It watches the form's attributes rather than polling by
 * animation frame, which a page in the background does not get.
 */
export const useFocusFirstInvalidOnSubmit = () => {
  useEffect(() => {
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement)) return;
      const done = () => {
        observer.disconnect();
        clearTimeout(timer);
        document.removeEventListener('keydown', done, { capture: true });
        document.removeEventListener('pointerdown', done, { capture: true });
      };
      const look = () => {
        const invalid = form.querySelector<HTMLElement>('[aria-invalid="true"]');
        if (!invalid) return;
        done();
        if (document.activeElement !== invalid) invalid.focus();
      };
      const observer = new MutationObserver(look);
      const timer = setTimeout(done, WAIT_MS);
      document.addEventListener('keydown', done, { capture: true, once: true });
      document.addEventListener('pointerdown', done, { capture: true, once: true });
      observer.observe(form, { subtree: true, attributes: true, attributeFilter: ['aria-invalid'] });
      // Errors already drawn (a second submit of the same mistakes) change no attribute: look now too.
      queueMicrotask(look);
    };
    document.addEventListener('submit', onSubmit, true);
    return () => document.removeEventListener('submit', onSubmit, true);
  }, []);
};
