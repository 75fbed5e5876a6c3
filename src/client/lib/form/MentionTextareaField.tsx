import { Paper, Text, Textarea, UnstyledButton, type TextareaProps } from '@mantine/core';
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Field } from 'react-final-form';
import { mentionParts, mentionToken } from '../../../shared/mentions';
import { activeOptions, useRecordOptions } from '../record-options';
import { MentionText } from '../ui/MentionText';
import { errorOf, type Option } from './fields';

const SHOWN = 6;
/** `@` and the start of a name just before the caret. */
const TYPED = /(^|\s)@([^\s@[\]()]{0,30})$/;

interface MentionTextareaFieldProps extends Omit<TextareaProps, 'name' | 'value' | 'onChange' | 'error'> {
  name: string;
}

/**
 * A text box that offers people after `@` (docs/architecture.md#notifications-watchers-and-mentions):
 * arrows choose, Enter or Tab inserts `@[Name](user:<id>)`, Escape closes the list. Anyone active
 * can be found: what follows `@` is asked of the API when one page does not hold everyone.
 */
export function MentionTextareaField({ name, ...props }: MentionTextareaFieldProps) {
  const listId = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [query, setQuery] = useState<string | null>(null);
  const options = useRecordOptions('users', { search: query ?? '' });
  const people = useMemo(() => activeOptions(options), [options]);
  const [active, setActive] = useState(0);
  const matches = query === null ? [] : people.filter((person) => person.label.toLowerCase().includes(query.toLowerCase())).slice(0, SHOWN);
  const open = matches.length > 0;

  const look = (text: string, caret: number) => {
    const typed = TYPED.exec(text.slice(0, caret));
    setQuery(typed ? (typed[2] ?? '') : null);
    setActive(0);
  };

  return (
    <Field<string> name={name}>
      {({ input, meta }) => {
        const pick = (person: Option) => {
          const element = box.current;
          const text = input.value ?? '';
          const caret = element?.selectionStart ?? text.length;
          const before = text.slice(0, caret).replace(/@[^\s@[\]()]*$/, '');
          const token = `${mentionToken(person.label, Number(person.value))} `;
          input.onChange(before + token + text.slice(caret));
          setQuery(null);
          // The caret goes after the name once the new text is drawn, unless the person has moved on.
          requestAnimationFrame(() => {
            if (element && document.activeElement === element) element.setSelectionRange(before.length + token.length, before.length + token.length);
          });
        };
        const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
          if (!open) return;
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setActive((index) => (index + (event.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
          } else if (event.key === 'Enter' || event.key === 'Tab') {
            event.preventDefault();
            const person = matches[active];
            if (person) pick(person);
          } else if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            setQuery(null);
          }
        };
        return (
          <div style={{ position: 'relative' }}>
            <Textarea
              {...props}
              ref={box}
              name={input.name}
              value={input.value ?? ''}
              onChange={(event) => {
                input.onChange(event.currentTarget.value);
                look(event.currentTarget.value, event.currentTarget.selectionStart);
              }}
              onBlur={() => {
                input.onBlur();
                setQuery(null);
              }}
              onFocus={input.onFocus}
              onKeyDown={onKeyDown}
              error={errorOf(meta)}
              // A text box with a list (no combobox role: axe allows none on a textarea).
              aria-autocomplete="list"
              aria-controls={open ? listId : undefined}
              aria-activedescendant={open ? `${listId}-${active}` : undefined}
              description={props.description ?? 'Type @ to mention someone'}
            />
            {/* The box holds the tokens as stored; under it, the text as everyone reads it. */}
            {mentionParts(input.value ?? '').some((part) => 'userId' in part) ? (
              <Text size="sm" c="dimmed" mt={4} style={{ whiteSpace: 'pre-wrap' }} data-testid="mention-preview">
                Reads as: <MentionText text={input.value ?? ''} known={options} />
              </Text>
            ) : null}
            {open ? (
              <Paper withBorder shadow="sm" p={4} style={{ position: 'absolute', zIndex: 400, left: 0, right: 0 }}>
                <div role="listbox" id={listId} aria-label="People to mention">
                  {matches.map((person, index) => (
                    <UnstyledButton
                      key={person.value}
                      id={`${listId}-${index}`}
                      role="option"
                      aria-selected={index === active}
                      tabIndex={-1}
                      display="block"
                      w="100%"
                      p={6}
                      bg={index === active ? 'var(--mantine-primary-color-light)' : undefined}
                      // Before the box's blur closes the list.
                      onMouseDown={(event) => {
                        event.preventDefault();
                        pick(person);
                      }}
                    >
                      {person.label}
                    </UnstyledButton>
                  ))}
                </div>
              </Paper>
            ) : null}
          </div>
        );
      }}
    </Field>
  );
}
