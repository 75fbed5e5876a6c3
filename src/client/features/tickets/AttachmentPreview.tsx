import { Button, Center, Group, Image, Loader, Modal, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { isImageType, type Attachment } from '../../../shared/schemas/attachments';
import { closeOnEscapeInside } from '../../lib/ui/escape';
import { useObjectUrl } from './attachments-api';

const PDF = 'application/pdf';

/** Files the page can show itself: the images it draws, and PDFs in the browser's own viewer. */
export const canPreview = (file: Attachment) => isImageType(file.contentType) || file.contentType === PDF;

/** The file's bytes, fetched with the token, shown from an object URL that goes with the dialog. */
function PreviewBody({ file }: { file: Attachment }) {
  const url = useObjectUrl(file.id);
  if (!url) {
    return (
      <Center h={240}>
        <Loader aria-label={`Loading ${file.name}`} />
      </Center>
    );
  }
  return file.contentType === PDF ? (
    <iframe src={url} title={file.name} style={{ width: '100%', height: '70vh', border: 0 }} />
  ) : (
    // Its own size at most, so a small screenshot is not blown up; a large one fits the dialog.
    <Image src={url} alt={file.name} fit="contain" w="auto" maw="100%" mah="70vh" mx="auto" />
  );
}

interface AttachmentPreviewProps {
  file: Attachment;
  opened: boolean;
  onClose: () => void;
  onDownload: () => void;
  downloading: boolean;
}

/** An image or a PDF attachment in a dialog, with Download beside it; the whole screen on a phone. */
export function AttachmentPreview({ file, opened, onClose, onDownload, downloading }: AttachmentPreviewProps) {
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  return (
    <Modal opened={opened} onClose={onClose} title={file.name} size="xl" fullScreen={phone} {...closeOnEscapeInside(onClose)}>
      <Stack>
        {opened ? <PreviewBody file={file} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button onClick={onDownload} loading={downloading}>
            Download
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
