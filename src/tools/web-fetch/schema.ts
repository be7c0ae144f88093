import { z } from "zod";

export const webFetchInputSchema = z.strictObject({
  url: z.string().min(1).describe("The http or https URL to fetch"),
  prompt: z.string().min(1).describe("What to find out from the page"),
});

export type WebFetchInput = z.infer<typeof webFetchInputSchema>;

export type WebFetchOutput =
  | {
    kind: "page";
    url: string;
    finalUrl: string;
    status: number;
    contentType: string;
    bytes: number;
    title?: string;
    /** Readable text (HTML converted), or a description of content that is not text. */
    text: string;
    /** The body or the text was cut at a limit. */
    cut: boolean;
    prompt: string;
  }
  | { kind: "redirect"; url: string; status: number; location: string; prompt: string };
