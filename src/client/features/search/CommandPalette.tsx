import '@mantine/spotlight/styles.css';
import { Badge, Group, Loader, Text, VisuallyHidden } from '@mantine/core';
import { Spotlight, createSpotlight, type SpotlightStore } from '@mantine/spotlight';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { recordAddress } from '../../lib/links';
import { notify } from '../../lib/toast/notify';
import { KIND_LABELS } from './kind-labels';
import { useSearchResults } from './api';
import classes from './palette.module.css';
import { readRecent, remember, type RecentChoice } from './recent';

/** A page of the app the palette can jump to; the shell passes its navigation in. */
export interface PalettePage {
  label: string;
  to: string;
}

interface Props {
  opened: boolean;
  onClose: () => void;
  pages: PalettePage[];
}

/** A choice and the address it opens, or undefined for a record with no page. */
interface Choice extends Omit<RecentChoice, 'address'> {
  address: string | undefined;
}

// Short enough to feel immediate, long enough that a word typed at speed is one request.
const DEBOUNCE_MS = 80;

/**
 * Highlights the first result, as the palette does itself when the query changes; results arrive
 * later than that, so it is done again once they render. The package does not export its own
 * select action, only the store.
 */
const highlightFirst = (store: SpotlightStore) => {
  const list = document.getElementById(store.getState().listId);
  list?.querySelectorAll('[data-selected]').forEach((item) => item.removeAttribute('data-selected'));
  const first = list?.querySelector('[data-action]');
  first?.setAttribute('data-selected', 'true');
  first?.scrollIntoView({ block: 'nearest' });
  store.updateState((state) => ({ ...state, selected: first ? 0 : -1 }));
};

const matches = (text: string, query: string) => text.toLowerCase().includes(query.toLowerCase());

/**
 * The command palette (Ctrl+K, Cmd+K, "/"): pages matched here, records from `GET search`. The
 * first result is highlighted as results arrive, so Enter opens it; arrows move the highlight.
 */
export default function CommandPalette({ opened, onClose, pages }: Props) {
  const [[store, actions]] = useState(createSpotlight);
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, DEBOUNCE_MS);
  const results = useSearchResults(debounced);
  const [recent, setRecent] = useState(readRecent);

  useEffect(() => (opened ? actions.open() : actions.close()), [opened, actions]);

  const choices = useMemo((): Choice[] => {
    const text = query.trim();
    if (!text) return recent;
    const pageChoices = pages
      .filter((page) => matches(page.label, text))
      .map((page) => ({ key: `page:${page.to}`, kind: 'Page', title: page.label, subtitle: page.to, address: page.to }));
    const records = (results.data?.items ?? []).map((item) => ({
      key: `${item.type}:${item.id}`,
      kind: KIND_LABELS[item.type],
      title: item.title,
      subtitle: item.subtitle,
      // Each hit carries what its address needs (a line its ledger), so opening it asks nothing more.
      address: recordAddress(item.type, item.id, item.type === 'invoice_line' ? item.source : undefined),
    }));
    return [...pageChoices, ...records];
  }, [query, pages, recent, results.data]);

  useEffect(() => {
    if (opened) highlightFirst(store);
  }, [opened, choices, store]);

  const choose = ({ address, ...choice }: Choice) => {
    if (!address) {
      notify.error('Could not open that record', 'That record has no page to open');
      return;
    }
    remember({ ...choice, address });
    setRecent(readRecent());
    navigate(address);
  };

  const searching = query.trim() !== '' && (debounced !== query || results.isLoading);
  return (
    <Spotlight.Root
      store={store}
      query={query}
      onQueryChange={setQuery}
      shortcut={null}
      onSpotlightClose={onClose}
      scrollable
      maxHeight={440}
      // The dialog's name for screen readers; the box below says the rest to sighted people.
      title={<VisuallyHidden>Search</VisuallyHidden>}
      styles={{ header: { minHeight: 0, padding: 0 } }}
    >
      <Spotlight.Search
        aria-label="Search pages and records"
        placeholder="Search tickets, people, companies, statements…"
        rightSection={searching ? <Loader size="xs" aria-label="Searching" /> : null}
      />
      <Spotlight.ActionsList aria-label={query.trim() ? 'Results' : 'Recent'}>
        {choices.map((choice) => (
          <Spotlight.Action key={choice.key} onClick={() => choose(choice)}>
            <Group wrap="nowrap" w="100%" gap="sm">
              <Badge variant="light" size="sm" miw={92}>
                {choice.kind}
              </Badge>
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={500} truncate>
                  {choice.title}
                </Text>
                {choice.subtitle ? (
                  <Text size="xs" className={classes.subtitle} truncate>
                    {choice.subtitle}
                  </Text>
                ) : null}
              </div>
            </Group>
          </Spotlight.Action>
        ))}
        {choices.length === 0 && !searching ? (
          <Spotlight.Empty>{query.trim() ? 'Nothing found' : 'Type to search tickets, people, companies and statements'}</Spotlight.Empty>
        ) : null}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
