/**
 * Test step for render tests: a design written straight to the table (version 1), as a render
 * URL finds it by its public id. In-process stacks only (test/support/stack.ts).
 */
export async function putDesign(
  publicId: string,
  teamId: string,
  document: unknown,
): Promise<void> {
  const { db } = await import('#lib/db/index.ts');
  await db()
    .Design.put({
      designId: `design-${publicId}`,
      teamId,
      publicId,
      title: publicId,
      version: 1,
      document,
    })
    .go();
}
