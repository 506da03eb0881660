import {
  CreateFileList,
  DeleteAllFileLists,
  DeleteFileList,
  ListAllFileLists,
  ListFileLists,
  ShowFileList,
  UpdateFileList,
} from '../files/manage-file-lists.js';
import type { FileLists } from '../files/ports.js';
import { UploadFileListFiles } from '../files/upload-file-list-files.js';
import type { SharedPorts } from './shared-ports.js';

/** The file lists' own port. */
export interface FilePorts {
  readonly fileLists: FileLists;
}

/** File lists: named bundles of files (captions and stored files) that queues, chatbots and flows send. */
export function createFiles(p: FilePorts & SharedPorts) {
  const { fileLists: lists, blobs, realtime, tx, clock, ids } = p;
  const writes = { lists, blobs, tx, clock, realtime };
  return {
    listFileLists: new ListFileLists({ lists }),
    listAllFileLists: new ListAllFileLists({ lists }),
    showFileList: new ShowFileList({ lists }),
    createFileList: new CreateFileList(writes),
    updateFileList: new UpdateFileList(writes),
    deleteFileList: new DeleteFileList(writes),
    deleteAllFileLists: new DeleteAllFileLists(writes),
    uploadFileListFiles: new UploadFileListFiles({ ...writes, ids }),
  };
}
export type FilesApi = ReturnType<typeof createFiles>;
