/** Caps of one submission to a hosted form. */
export interface FormLimits {
  /** Most bytes of a whole submission (the body as sent). */
  maxSubmissionBytes: number;
  /** Most bytes of one uploaded file. */
  maxFileBytes: number;
  /** Most files in one submission. */
  maxFiles: number;
  /** Most characters of one text value. */
  maxValueChars: number;
}

export const defaultFormLimits: FormLimits = {
  maxSubmissionBytes: 10 * 1024 * 1024,
  maxFileBytes: 5 * 1024 * 1024,
  maxFiles: 5,
  maxValueChars: 10_000,
};
