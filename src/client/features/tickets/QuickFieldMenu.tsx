import { Menu, UnstyledButton } from '@mantine/core';
import type { ReactNode, SyntheticEvent } from 'react';
import type { Option } from '../../lib/form/fields';

// Clicks and keys in the menu (its dropdown too: React bubbles through the portal) stay here, so
// they neither open the row they sit in nor reach the drawer (Escape closes the menu only).
const keepHere = (event: SyntheticEvent) => event.stopPropagation();

interface QuickFieldMenuProps {
  /** What is changed, as the label says it: "status". */
  noun: string;
  ticketId: number;
  /** The value shown, as its option's value, and its label. */
  value: string;
  shown: string;
  options: readonly Option[];
  /** While the last change waits for its answer, no second one is picked. */
  busy: boolean;
  onPick: (value: string) => void;
  /** How the value looks (a badge, a name). */
  children: ReactNode;
}

/**
 * One fact of a ticket as a button that opens its choices (docs/architecture.md#instant-edits):
 * a pick shows at once, before the API answers.
 */
export function QuickFieldMenu({ noun, ticketId, value, shown, options, busy, onPick, children }: QuickFieldMenuProps) {
  return (
    <span onClick={keepHere} onKeyDown={keepHere} data-testid={`quick-${noun}`}>
      {/* No focus placeholder: an unlabelled focusable child of the menu fails axe (aria-required-children). */}
      <Menu position="bottom-start" shadow="md" withinPortal withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <UnstyledButton aria-label={`Change ${noun} of #${ticketId}: ${shown}`} aria-busy={busy || undefined} style={{ borderRadius: 4, font: 'inherit' }}>
            {children}
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown mah={320} style={{ overflowY: 'auto' }}>
          {options.map((option) => (
            <Menu.Item
              key={option.value}
              disabled={busy}
              aria-current={option.value === value || undefined}
              rightSection={option.value === value ? <span aria-hidden="true">✓</span> : null}
              onClick={() => option.value !== value && onPick(option.value)}
            >
              {option.label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </span>
  );
}
