/** A help article or video shown to every company's operators; platform-wide, not per tenant. */
export interface Help {
  id: number;
  title: string;
  description: string;
  video: string | null;
  link: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewHelp = Omit<Help, 'id'>;

export interface HelpView extends Omit<Help, 'createdAt' | 'updatedAt'> {
  createdAt: string;
  updatedAt: string;
}

export function toHelpView(h: Help): HelpView {
  return { ...h, createdAt: h.createdAt.toISOString(), updatedAt: h.updatedAt.toISOString() };
}
