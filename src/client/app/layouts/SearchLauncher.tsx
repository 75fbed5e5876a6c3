import { Box, Button, Kbd, Text, VisuallyHidden } from '@mantine/core';
import { useHotkeys, useOs } from '@mantine/hooks';
import { Suspense, lazy, useMemo, useState } from 'react';
import type { PalettePage } from '../../features/search/CommandPalette';
import { loadPage } from '../lazy-page';
import type { NavItem } from './nav-items';

// The palette's code (and Spotlight's) loads on first use, so the login page's budget holds.
const CommandPalette = lazy(() => loadPage(() => import('../../features/search/CommandPalette'), 'CommandPalette'));

const flatten = (items: NavItem[]): PalettePage[] =>
  items.flatMap((item) => ('children' in item ? flatten(item.children) : [{ label: item.label, to: item.to }]));

/**
 * A magnifying glass drawn in SVG: a text glyph (⌕) is missing from most phone fonts and showed
 * as an empty box.
 */
function SearchIcon() {
  return (
    <svg width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.2} strokeLinecap="round" aria-hidden focusable="false" data-testid="search-icon">
      <circle cx={10.5} cy={10.5} r={6.5} />
      <path d="M15.5 15.5 20 20" />
    </svg>
  );
}

/** The header's search button, and the shortcuts that open the palette from anywhere. */
export function SearchLauncher({ nav }: { nav: NavItem[] }) {
  const [opened, setOpened] = useState(false);
  const [wanted, setWanted] = useState(false);
  const mac = useOs() === 'macos';
  const pages = useMemo(() => flatten(nav), [nav]);
  const open = () => {
    setWanted(true);
    setOpened(true);
  };
  // Ctrl+K and Cmd+K work everywhere, "/" only where it would not be typed into a field.
  useHotkeys([['mod+K', open]], []);
  useHotkeys([['/', open]]);

  return (
    <>
      <Button
        variant="default"
        onClick={open}
        aria-keyshortcuts={mac ? 'Meta+K /' : 'Control+K /'}
        rightSection={<Kbd size="xs" visibleFrom="sm">{mac ? '⌘ K' : 'Ctrl K'}</Kbd>}
        miw={0}
      >
        <Text span size="sm" visibleFrom="sm">
          Search
        </Text>
        <Box component="span" hiddenFrom="sm" display="flex">
          <SearchIcon />
          <VisuallyHidden>Search</VisuallyHidden>
        </Box>
      </Button>
      {wanted ? (
        <Suspense fallback={null}>
          <CommandPalette opened={opened} onClose={() => setOpened(false)} pages={pages} />
        </Suspense>
      ) : null}
    </>
  );
}
