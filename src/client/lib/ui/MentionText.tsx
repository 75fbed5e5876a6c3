import { Text } from '@mantine/core';
import { mentionParts, type TextPart } from '../../../shared/mentions';
import type { RecordOption } from '../record-options';
import { useApi } from '../use-api';

type Mention = Extract<TextPart, { userId: number }>;

const Name = ({ name }: { name: string }) => (
  <Text span fw={600} inherit>
    @{name}
  </Text>
);

/** A mention of someone not among the people at hand (past the first page): asked of the API by id. */
function LookedUpMention({ part }: { part: Mention }) {
  const { data } = useApi('GET /users/:id', { params: { id: part.userId } });
  return data?.isActive ? <Name name={part.name} /> : <>{part.token}</>;
}

/**
 * Text with its mention tokens shown as names. A token naming someone who is not an active person
 * (since deactivated, or an id nobody has) stays as typed, so no text can dress up a name.
 * `known`: the people already at hand, active or not; anyone else named is looked up by id.
 */
export function MentionText({ text, known }: { text: string; known: readonly RecordOption[] }) {
  const byId = new Map(known.map((person) => [Number(person.value), person.active]));
  return (
    <>
      {mentionParts(text).map((part, index) => {
        if (!('userId' in part)) return part.text;
        const active = byId.get(part.userId);
        if (active === undefined) return <LookedUpMention key={index} part={part} />;
        return active ? <Name key={index} name={part.name} /> : part.token;
      })}
    </>
  );
}
