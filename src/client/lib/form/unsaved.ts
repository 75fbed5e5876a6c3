import { createContext, useContext, useSyncExternalStore } from 'react';

/** A form on screen that may hold unsaved work. */
export interface GuardedForm {
  isDirty: () => boolean;
  /** The search values that keep the form's layer open (`id` for a record drawer); a change closes it. */
  keys: readonly string[];
  /** Drops the unsaved work for good (its stored draft), once the person chose to discard it. */
  discard: () => void;
}

/** The forms of one layer (a drawer, a dialog), so closing that layer asks about its forms only. */
export interface GuardScope {
  keys: readonly string[];
  forms: Set<GuardedForm>;
}

const everyForm = new Set<GuardedForm>();

/** Outside any layer, a form is lost only when the page itself changes. */
export const GuardScopeContext = createContext<GuardScope>({ keys: [], forms: new Set() });

export const useGuardScope = () => useContext(GuardScopeContext);

/** Registers a form for as long as it is on screen; returns the unregister call. */
export const guardForm = (form: GuardedForm, scope: GuardScope) => {
  everyForm.add(form);
  scope.forms.add(form);
  return () => {
    everyForm.delete(form);
    scope.forms.delete(form);
  };
};

export const hasUnsavedWork = () => [...everyForm].some((form) => form.isDirty());

interface Place {
  pathname: string;
  search: string;
}

const closes = (form: GuardedForm, from: Place, to: Place) => {
  if (from.pathname !== to.pathname) return true;
  const before = new URLSearchParams(from.search);
  const after = new URLSearchParams(to.search);
  return form.keys.some((key) => before.get(key) !== after.get(key));
};

/** The dirty forms a move from one address to another would take off the screen. */
export const formsLostBy = (from: Place, to: Place) => [...everyForm].filter((form) => form.isDirty() && closes(form, from, to));

export const dirtyFormsIn = (scope: GuardScope) => [...scope.forms].filter((form) => form.isDirty());

// ---------------------------------------------------------------- the discard prompt

let answer: ((discard: boolean) => void) | null = null;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** Asks, in the app's one discard dialog, whether unsaved changes may go; resolves true to discard. */
export const askToDiscard = () =>
  new Promise<boolean>((resolve) => {
    // A second question while one is open is the same question: both get the one answer.
    const earlier = answer;
    answer = (discard) => {
      earlier?.(discard);
      resolve(discard);
    };
    // Shown after the event that asked (an Escape keydown) is done: opened within it, the dialog's
    // own Escape listener would catch the same key press and answer "keep editing" at once.
    setTimeout(changed);
  });

export const answerDiscard = (discard: boolean) => {
  const reply = answer;
  answer = null;
  changed();
  reply?.(discard);
};

export const useDiscardQuestion = () =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => answer !== null,
  );

/**
 * The close of a layer that is not in the address (the New ticket dialog): with unsaved work in
 * it, it asks first. Layers in the address (record drawers, settings) are guarded by the router.
 */
export const guardedClose = (scope: GuardScope, close: () => void) => () => {
  const dirty = dirtyFormsIn(scope);
  if (dirty.length === 0) return close();
  void askToDiscard().then((discard) => {
    if (!discard) return;
    dirty.forEach((form) => form.discard());
    close();
  });
};
