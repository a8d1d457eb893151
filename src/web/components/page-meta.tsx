interface PageMetaProps {
  title: string;
  description: string;
  /** Admin and error pages ask search engines to stay away. */
  noindex?: boolean;
}

/** React 19 hoists these into <head>, in the first HTML and on client navigation alike. */
export function PageMeta({ title, description, noindex }: PageMetaProps) {
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
      {noindex && <meta name="robots" content="noindex" />}
    </>
  );
}
