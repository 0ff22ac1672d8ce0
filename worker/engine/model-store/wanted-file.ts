/** A file a model needs: where it is, the name it is mounted under, and its sha256 if published. */
export interface WantedFile {
  url: string;
  name: string;
  sha256: string | null;
}
