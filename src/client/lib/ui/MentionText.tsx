import { Text } from '@mantine/core';
import { mentionParts, type TextPart } from '../../../shared/mentions';
import { fullName } from '../format';
import type { RecordOption } from '../record-options';
import { useApi } from '../use-api';

type Mention = Extract<TextPart, { userId: number }>;

/**
 * One mention as a name. Only an active person's mention is drawn as one, under the name they have
 * now rather than the one typed into the token; anyone else reads as plain `@name`, text anybody
 * could have typed, so no token can dress up a name.
 */
const Name = ({ name, active }: { name: string; active: boolean }) =>
  active ? (
    <Text span fw={600} inherit data-mention="">
      @{name}
    </Text>
  ) : (
    <>@{name}</>
  );

/** A mention of someone not among the people at hand (past the first page): asked of the API by id. */
function LookedUpMention({ part }: { part: Mention }) {
  const { data } = useApi('GET /users/:id', { params: { id: part.userId } });
  return data ? <Name name={fullName(data)} active={data.isActive} /> : <Name name={part.name} active={false} />;
}

/**
 * Text with its mention tokens shown as the names of the people they point at, by id: the token's
 * own name only while the person is unknown (an id nobody has, or still being looked up).
 * `known`: the people already at hand, active or not; anyone else named is looked up by id.
 */
export function MentionText({ text, known }: { text: string; known: readonly RecordOption[] }) {
  const byId = new Map(known.map((person) => [Number(person.value), person]));
  return (
    <>
      {mentionParts(text).map((part, index) => {
        if (!('userId' in part)) return part.text;
        const person = byId.get(part.userId);
        if (!person) return <LookedUpMention key={index} part={part} />;
        return <Name key={index} name={person.label} active={person.active} />;
      })}
    </>
  );
}
