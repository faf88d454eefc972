/**
 * The uploads domain's public surface (ARCHITECTURE.md): the checks every upload shares (size, file name, archive shape, the file read in the upload pool).
 * Code outside lib/uploads/ imports from here (the module boundaries check it: `npm run boundaries`);
 * tests may reach the modules behind it.
 */
export { archiveKind, pairArchiveFiles, readArchive, writeTarGz } from "./archive";
export { ACKNOWLEDGE_WARNINGS_FIELD, UploadShapeError, archiveLimitBytes, assertUploadSize, checkRunDocuments, cleanFileName, datasetFormatMismatch, enforceDocumentCheck, missingDatasetWarnings, readUpload, sampleSubmissionPath, uploadHowTo, uploadLimitBytes, validateUpload } from "./checks";
export type { DocumentCheck, GoldSource, RunDocument, UploadStats, Warning } from "./checks";
