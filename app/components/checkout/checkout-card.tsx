/** A titled card of the cart, checkout and order pages: the heading names the region. */
export function CheckoutCard({
  id,
  title,
  as: Tag = 'section',
  className,
  testId,
  children,
}: {
  /** The heading's id, which labels the card. */
  id: string;
  title: React.ReactNode;
  as?: 'section' | 'aside';
  className?: string;
  testId?: string;
  children: React.ReactNode;
}) {
  return (
    <Tag
      className={className ? `checkout-card ${className}` : 'checkout-card'}
      aria-labelledby={id}
      data-testid={testId}
    >
      <h2 className="checkout-card__title" id={id}>
        {title}
      </h2>
      {children}
    </Tag>
  );
}
