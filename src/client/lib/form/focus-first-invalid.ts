import { useEffect } from 'react';

const FRAMES_TO_WAIT = 10;

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
      // The shared yup validation is asynchronous: look for the errors over the next few frames.
      let frames = FRAMES_TO_WAIT;
      const look = () => {
        const invalid = form.querySelector<HTMLElement>('[aria-invalid="true"]');
        if (invalid) {
          if (document.activeElement !== invalid) invalid.focus();
        } else if ((frames -= 1) > 0) {
          requestAnimationFrame(look);
        }
      };
      requestAnimationFrame(look);
    };
    document.addEventListener('submit', onSubmit, true);
    return () => document.removeEventListener('submit', onSubmit, true);
  }, []);
};
