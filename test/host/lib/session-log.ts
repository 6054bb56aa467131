/**
 * The session-log reader lives in `tools/lib/session-log.ts` (the replay and
 * sweep tools read the same logs); the host suites import it from here.
 */
export {
  collectLogFiles,
  findSessionLogs,
  KNOWN_RECORD_TYPES,
  readLogText,
  readSessionLog,
  STORAGE_ROW_TYPES,
  type LogRecord,
  type Notice,
  type SessionEvent,
  type SessionLog,
  type ToolStep,
} from '../../../tools/lib/session-log.js';
