import { Text } from '@mantine/core';
import { mentionParts } from '../../../shared/mentions';

/** Text with its mention tokens shown as names; a token naming someone not active stays as typed. */
export function MentionText({ text, activeIds }: { text: string; activeIds: ReadonlySet<number> }) {
  return (
    <>
      {mentionParts(text).map((part, index) =>
        'userId' in part && activeIds.has(part.userId) ? (
          <Text key={index} span fw={600} inherit>
            @{part.name}
          </Text>
        ) : (
          'userId' in part ? part.token : part.text
        ),
      )}
    </>
  );
}
